package io.tailstream.reporter.report;

import io.tailstream.analysis.interval.PercentInterval;
import java.util.List;

/**
 * The verdict of a workload on one metric: exactly one of a winner, a tie, an indicative winner, no verdict (the
 * evidence fails a check that invalidates the comparison) or nothing to compare ({@link ReportAnalysis} has the
 * rules).
 *
 * @param metric    {@code throughput} (peak QPS, higher is better), {@code p99} (at {@code threads}, lower is
 *                  better) or {@code cost} (monthly cost per 1,000 peak QPS, lower is better); for TPC-C peak tpmC
 *                  and cost per 1,000 peak tpmC ({@link #throughputUnit})
 * @param status    {@link #WIN}, {@link #TIE}, {@link #INDICATIVE}, {@link #NONE} or {@link #NA}
 * @param winner    best target (win, tie, indicative), else null
 * @param value     the winner's figure
 * @param runnerUp  second best target, or null
 * @param runnerUpValue its figure
 * @param tiedWith  targets tied with the winner (status tie)
 * @param interval  the winner's figure against the runner-up's, in % of the runner-up's ({@link #marginPct}),
 *                  with its 95% confidence interval from the rounds of both (Fieller's interval of the ratio of
 *                  their mean rounds); null when there is no winner or a side was measured in one round
 * @param noisePct  the metric's measured noise in %: the largest coefficient of variation over rounds of the
 *                  candidates with 2 or more, and the difference between the targets of an A/A pair (the same
 *                  database twice); no difference this small is a win. Null when nothing measured it
 * @param threads   concurrency of the comparison (P99), or null (peak over all concurrencies)
 * @param unit      unit of the figures ({@code qps}, {@code tpmC}, {@code ms}, or the currency)
 * @param reasons   why there is no verdict (status none: the failed checks, naming targets and figures; status na:
 *                  why there is nothing to compare); empty otherwise
 * @param waived    checks the plan waived ({@code accept}) that would have failed for this comparison
 */
public record Verdict(String workload, String metric, String status, String winner, Double value,
                      String runnerUp, Double runnerUpValue, List<String> tiedWith, PercentInterval interval,
                      Double noisePct, Integer threads, String unit, List<Reason> reasons, List<Reason> waived) {
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

    /** What throughput is counted in: {@code tpmC} for TPC-C, else {@code QPS}. */
    public String throughputUnit() {
        return Verdicts.countsTpmC(workload) ? "tpmC" : "QPS";
    }

    /** The message key of the metric's name: TPC-C's throughput and cost are named by tpmC. */
    public String metricKey() {
        return "verdict.metric." + metric + (Verdicts.countsTpmC(workload) && !metric.equals("p99") ? ".tpmC" : "");
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
     * Why a tie is no win: the rounds vary too much to bound the difference, or its interval holds 0 (the data show
     * none, and name the smallest they could have shown), or it is shown but no larger than the measured noise. Null
     * for other statuses.
     */
    public Text tieReason() {
        if (!tie() || interval == null) {
            return null;
        }
        if (!interval.bounded()) {
            return Text.of("verdict.tie.unbounded");
        }
        if (interval.coversZero()) {
            return Text.of("verdict.tie.undetectable", pct(interval.smallestDetectablePct()));
        }
        return Text.of("verdict.tie.noise", pct(noisePct));
    }

    private static String pct(Double v) {
        return v == null ? "-" : String.format(java.util.Locale.ROOT, "%.1f%%", v);
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
