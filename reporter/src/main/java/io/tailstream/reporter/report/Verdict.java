package io.tailstream.reporter.report;

import java.util.List;

/**
 * The verdict of a workload on one metric: exactly one of a winner, a tie, an indicative winner, no verdict (the
 * evidence fails a check that invalidates the comparison) or nothing to compare ({@link ReportAnalysis} has the
 * rules).
 *
 * @param metric    {@code throughput} (peak QPS, higher is better), {@code p99} (at {@code threads}, lower is
 *                  better) or {@code cost} (monthly cost per 1,000 peak QPS, lower is better)
 * @param status    {@link #WIN}, {@link #TIE}, {@link #INDICATIVE}, {@link #NONE} or {@link #NA}
 * @param winner    best target (win, tie, indicative), else null
 * @param value     the winner's figure
 * @param runnerUp  second best target, or null
 * @param runnerUpValue its figure
 * @param tiedWith  targets tied with the winner (status tie)
 * @param spread    the larger of the winner's and the runner-up's round-to-round spreads (max - min of the
 *                  figure over their rounds, each round computed alone); null when unknown (a side measured in
 *                  one round) or when there is no winner
 * @param threads   concurrency of the comparison (P99), or null (peak over all concurrencies)
 * @param unit      unit of the figures ({@code qps}, {@code ms}, or the currency)
 * @param reasons   why there is no verdict (status none: the failed checks, naming targets and figures; status na:
 *                  why there is nothing to compare); empty otherwise
 * @param waived    checks the plan waived ({@code accept}) that would have failed for this comparison
 */
public record Verdict(String workload, String metric, String status, String winner, Double value,
                      String runnerUp, Double runnerUpValue, List<String> tiedWith, Double spread,
                      Integer threads, String unit, List<Reason> reasons, List<Reason> waived) {
    public static final String WIN = "win";
    public static final String TIE = "tie";
    public static final String INDICATIVE = "indicative";
    public static final String NONE = "none";
    public static final String NA = "na";

    public Verdict {
        if (!List.of(WIN, TIE, INDICATIVE, NONE, NA).contains(status)) {
            throw new IllegalArgumentException("verdict status must be win, tie, indicative, none or na, was "
                    + status);
        }
        if ((winner == null) != (status.equals(NONE) || status.equals(NA))) {
            throw new IllegalArgumentException("verdict " + workload + "/" + metric + ": status " + status
                    + (winner == null ? " needs a winner" : " has no winner, got " + winner));
        }
        tiedWith = List.copyOf(tiedWith);
        reasons = List.copyOf(reasons);
        waived = List.copyOf(waived);
    }

    public boolean tie() {
        return status.equals(TIE);
    }

    public boolean indicative() {
        return status.equals(INDICATIVE);
    }

    /** A comparison that has a verdict: win, tie or indicative. */
    public boolean decided() {
        return winner != null;
    }

    /** Two or more candidates were there to compare (every status but na). */
    public boolean comparison() {
        return !status.equals(NA);
    }

    /** The checks that failed (status none), each once, in reason order. */
    public List<String> failedChecks() {
        return reasons.stream().map(Reason::check).distinct().toList();
    }

    /** The checks waived by the plan that would have failed, each once. */
    public List<String> waivedChecks() {
        return waived.stream().map(Reason::check).distinct().toList();
    }

    /** The first reason, or null. */
    public Text reason() {
        return reasons.isEmpty() ? null : reasons.get(0).text();
    }

    /** Winner over runner-up, in % of the runner-up (positive: winner higher), or null. */
    public Double marginPct() {
        return value == null || runnerUpValue == null || runnerUpValue == 0 ? null
                : (value - runnerUpValue) / runnerUpValue * 100;
    }

    /**
     * A reason for no verdict, or a waived check.
     *
     * @param check the check ({@code clientBound}, {@code durability}, {@code isolation}, {@code warmup},
     *              {@code errors}, {@code dataSize}, {@code rtt}, {@code completed}), or {@code na} for nothing
     *              to compare
     * @param text  what failed, naming the targets, steps and figures
     */
    public record Reason(String check, Text text) {}
}
