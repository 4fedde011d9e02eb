package io.tailstream.reporter.report;

import io.tailstream.analysis.PercentChange;
import io.tailstream.analysis.RoundStats;
import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.reporter.query.TpccSamples;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.Verdict.Reason;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The verdicts of a workload, as pure functions of its exact summary rows, the targets and the evidence behind them.
 * Stateless and thread safe.
 *
 * <p>A verdict compares the targets' figures on one metric of one workload: peak QPS (higher is better), P99 at the
 * compared concurrency and monthly cost per 1,000 peak QPS (lower is better). TPC-C is judged on the figure its
 * results are quoted in: peak tpmC and cost per 1,000 peak tpmC, with the tpmC of each round.
 * <ol>
 *   <li><b>na</b> when there is nothing to compare: fewer than two candidates, no concurrency common to all (P99),
 *       fewer than two costs or costs in different currencies.</li>
 *   <li><b>none</b> (no verdict) when the evidence behind the rows compared fails a check ({@link
 *       ValidityChecks#VERDICT_CHECKS}): a step failed, was interrupted or never ended; a step was client-bound;
 *       commit durability, replication wait or torn-page protection differ or are unknown; isolation behaves
 *       differently or is unknown; a warm-up was absent or unsettled; a step's error share is over the limit; the
 *       data set is not larger than the buffer pool where the plan expects it; the probe RTTs differ enough to
 *       matter. The rows compared are every row of each candidate for throughput and cost (the peak is chosen among
 *       them) and the rows at the compared concurrency for P99. A check that every run behind those rows waives
 *       ({@code accept}) does not count, and is listed as waived.</li>
 *   <li><b>indicative</b> when a candidate was measured in one round: how much its figure varies is unknown.</li>
 *   <li><b>win</b> when every candidate has at least two rounds and the best is shown better than each other one:
 *       the 95% confidence interval of its difference (Fieller's interval of the ratio of the two candidates' mean
 *       rounds) lies wholly on its side of 0, and the difference is larger than the metric's measured noise (the
 *       largest coefficient of variation over a candidate's rounds; the difference between the targets of an A/A
 *       pair). <b>tie</b> with the candidates for which it is not.</li>
 * </ol>
 */
final class Verdicts {

    /** Metrics of the verdict, in the order shown. */
    public static final List<String> METRICS = List.of("throughput", "p99", "cost");

    /** Fewer rounds than this leave the round-to-round variation unknown: a difference is indicative, not a win. */
    static final int MIN_ROUNDS_FOR_WIN = 2;

    /** Confidence of the verdicts' intervals. */
    static final double CONFIDENCE = 0.95;

    private Verdicts() {}

    /** Whether the workload's throughput and cost verdicts count tpmC rather than QPS: TPC-C's. */
    static boolean countsTpmC(String workload) {
        return TpccSamples.WORKLOAD.equals(workload);
    }

    /**
     * A target's figure on one metric and the same figure of each of its rounds, computed alone.
     */
    private record Candidate(String target, double value, List<Double> rounds) {
        double[] roundValues() {
            return rounds.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }

    /**
     * The verdicts of a workload: best on peak throughput, on P99 at the compared concurrency and on cost per 1,000
     * peak QPS, each judged only on valid evidence (see the class comment).
     */
    public static List<Verdict> of(WorkloadSummary w, Map<String, TargetEnv> targets, Evidence evidence) {
        Map<String, List<SummaryRow>> byTarget = ReportAnalysis.byTarget(w.rows());
        List<Verdict> out = new ArrayList<>();
        if (byTarget.size() < 2) {
            for (String m : METRICS) {
                out.add(na(w.workload(), m, Text.of("verdict.reason.single")));
            }
            return out;
        }
        List<List<String>> aaPairs = aaPairs(byTarget.keySet(), targets);
        // throughput: each target's peak and that row's rounds; every row counts (the peak is chosen among them, so
        // a client-bound level could hide the real peak)
        boolean tpmC = countsTpmC(w.workload());
        List<Candidate> tput = new ArrayList<>();
        byTarget.forEach((t, rs) -> {
            if (tpmC) {
                TpccRow p = ReportAnalysis.tpccPeak(w, t);
                if (p != null) {
                    tput.add(new Candidate(t, p.tpmC(), p.roundTpmC()));
                }
            } else {
                SummaryRow p = ReportAnalysis.peak(rs);
                tput.add(new Candidate(t, p.qps(), p.roundQps()));
            }
        });
        out.add(decide(w, "throughput", tput, true, null, tpmC ? "tpmC" : "qps", allRows(byTarget, byTarget.keySet()),
                evidence, aaPairs));

        Integer at = w.atThreads();
        if (at == null) {
            out.add(na(w.workload(), "p99", Text.of("verdict.reason.noCommonThreads")));
        } else {
            List<Candidate> p99 = new ArrayList<>();
            byTarget.forEach((t, rs) -> rs.stream().filter(r -> r.threads() == at).findFirst()
                    .ifPresent(r -> p99.add(new Candidate(t, r.p99Ms(), r.roundP99Ms()))));
            Map<String, Set<Integer>> rows = new TreeMap<>();
            p99.forEach(c -> rows.put(c.target(), Set.of(at)));
            out.add(decide(w, "p99", p99, false, at, "ms", rows, evidence, aaPairs));
        }

        List<Cost> costs = w.costs();
        TreeSet<String> currencies = new TreeSet<>();
        costs.forEach(c -> currencies.add(Objects.toString(c.currency(), "")));
        if (costs.size() < 2) {
            out.add(na(w.workload(), "cost", Text.of("verdict.reason.noCost")));
        } else if (currencies.size() > 1) {
            out.add(na(w.workload(), "cost", Text.of("verdict.reason.currencies", String.join(", ", currencies))));
        } else {
            List<Candidate> cost = new ArrayList<>();
            for (Cost c : costs) {
                // cost per 1,000 QPS (tpmC) of each round at the peak concurrency
                if (tpmC) {
                    TpccRow p = ReportAnalysis.tpccPeak(w, c.target());
                    if (p != null && p.costPer1000TpmC() != null) {
                        cost.add(new Candidate(c.target(), p.costPer1000TpmC(), p.roundTpmC().stream()
                                .map(q -> ReportAnalysis.perThousandQps(c.monthlyCost(), q)).toList()));
                    }
                } else {
                    SummaryRow p = ReportAnalysis.peak(byTarget.get(c.target()));
                    cost.add(new Candidate(c.target(), c.costPer1000Qps(), p.roundQps().stream()
                            .map(q -> ReportAnalysis.perThousandQps(c.monthlyCost(), q)).toList()));
                }
            }
            out.add(decide(w, "cost", cost, false, null, currencies.first(),
                    allRows(byTarget, cost.stream().map(Candidate::target).toList()), evidence, aaPairs));
        }
        return out;
    }

    /** Judged on the figures alone, without validity checks: for callers that have no step evidence. */
    public static List<Verdict> of(WorkloadSummary w, Map<String, TargetEnv> targets) {
        return of(w, targets, Evidence.NONE);
    }

    /**
     * The A/A pairs among a workload's targets: two targets on the same database (same product, version and URL),
     * whose difference is the noise of every comparison of the workload.
     */
    static List<List<String>> aaPairs(Collection<String> measured, Map<String, TargetEnv> targets) {
        List<String> names = new ArrayList<>(new TreeSet<>(measured));
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                TargetEnv a = targets.get(names.get(i));
                TargetEnv b = targets.get(names.get(j));
                if (a != null && b != null && a.url() != null && a.url().equals(b.url())
                        && Objects.equals(a.product(), b.product()) && Objects.equals(a.version(), b.version())) {
                    out.add(List.of(a.name(), b.name()));
                }
            }
        }
        return out;
    }

    private static Map<String, Set<Integer>> allRows(Map<String, List<SummaryRow>> byTarget,
                                                     Collection<String> targets) {
        Map<String, Set<Integer>> rows = new TreeMap<>();
        targets.forEach(t -> rows.put(t, new TreeSet<>(byTarget.get(t).stream().map(SummaryRow::threads).toList())));
        return rows;
    }

    private static Verdict na(String workload, String metric, Text reason) {
        return new Verdict(workload, metric, Verdict.NA, null, null, null, null, List.of(), null, null, null, null,
                List.of(new Reason(Verdict.NA, reason)), List.of());
    }

    private static Verdict decide(WorkloadSummary w, String metric, List<Candidate> candidates, boolean higherIsBetter,
                                  Integer threads, String unit, Map<String, Set<Integer>> rows, Evidence evidence,
                                  List<List<String>> aaPairs) {
        String workload = w.workload();
        if (candidates.size() < 2) {
            return na(workload, metric, Text.of("verdict.reason.single"));
        }
        List<Reason> failed = new ArrayList<>();
        List<Reason> waived = new ArrayList<>();
        List<StepData> behind = evidence.stepsOf(workload, rows);
        for (ValidityChecks.Problem p : ValidityChecks.problems(evidence, w, rows)) {
            (evidence.waived(p.check(), behind) ? waived : failed).add(new Reason(p.check(), p.text()));
        }
        if (!failed.isEmpty()) {
            return new Verdict(workload, metric, Verdict.NONE, null, null, null, null, List.of(), null, null, threads,
                    unit, failed, waived);
        }
        List<Candidate> sorted = new ArrayList<>(candidates);
        ToDoubleFunction<Candidate> key = higherIsBetter ? c -> -c.value() : Candidate::value;
        sorted.sort(Comparator.comparingDouble(key).thenComparing(Candidate::target));
        Candidate best = sorted.get(0);
        Candidate second = sorted.get(1);
        Double noise = noise(candidates, aaPairs);
        if (sorted.stream().anyMatch(c -> c.rounds().size() < MIN_ROUNDS_FOR_WIN)) {
            // a side measured once: how much it varies is unknown, so no difference can be shown to exceed it
            return new Verdict(workload, metric, Verdict.INDICATIVE, best.target(), best.value(), second.target(),
                    second.value(), List.of(), null, noise, threads, unit, List.of(), waived);
        }
        List<String> tied = new ArrayList<>();
        for (Candidate c : sorted.subList(1, sorted.size())) {
            PercentInterval i = interval(best, c);
            // an interval without bounds (rounds too spread to bound the ratio) shows nothing
            if (!i.bounded() || !(higherIsBetter ? i.above(0, noise) : i.below(0, noise))) {
                tied.add(c.target());
            }
        }
        return new Verdict(workload, metric, tied.isEmpty() ? Verdict.WIN : Verdict.TIE, best.target(), best.value(),
                second.target(), second.value(), tied, interval(best, second), noise, threads, unit, List.of(),
                waived);
    }

    /**
     * {@code a} against {@code b} in % of {@code b}: the exact figures' difference, with Fieller's 95% interval of the
     * ratio of their mean rounds.
     */
    private static PercentInterval interval(Candidate a, Candidate b) {
        PercentInterval f = Fieller.ratioOfMeans(a.roundValues(), b.roundValues(), CONFIDENCE);
        return new PercentInterval(PercentChange.orInfinity(a.value(), b.value()), f.lowPct(), f.highPct(),
                CONFIDENCE);
    }

    /**
     * The metric's measured noise, %: the largest coefficient of variation over a candidate's rounds and the largest
     * difference between the two targets of an A/A pair; null when neither measured it.
     */
    private static Double noise(List<Candidate> candidates, List<List<String>> aaPairs) {
        Double out = null;
        for (Candidate c : candidates) {
            out = max(out, c.rounds().isEmpty() ? null : RoundStats.of(c.rounds()).cvPct());
        }
        Map<String, Double> values = new TreeMap<>();
        candidates.forEach(c -> values.put(c.target(), c.value()));
        for (List<String> pair : aaPairs) {
            Double a = values.get(pair.get(0));
            Double b = values.get(pair.get(1));
            if (a != null && b != null) {
                out = max(out, PercentChange.orNull(Math.max(a, b), Math.min(a, b)));
            }
        }
        return out;
    }

    private static Double max(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Double.valueOf(Math.max(a, b));
    }
}
