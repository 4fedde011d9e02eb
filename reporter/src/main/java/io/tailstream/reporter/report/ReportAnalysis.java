package io.tailstream.reporter.report;

import io.tailstream.analysis.PercentChange;
import io.tailstream.analysis.ScaleOut;
import io.tailstream.analysis.SweepPeak;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.SummaryRow.Delta;
import io.tailstream.reporter.report.Verdict.Reason;
import io.tailstream.reporter.report.WorkloadSummary.Sweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The judgements of a report, as pure functions of its exact summary rows, the targets and the evidence behind them:
 * deltas to a baseline, concurrency sweeps, cost per QPS, verdicts, scale-out ratios. Stateless and thread safe.
 *
 * <p>Verdict rule (a verdict compares the targets' figures on one metric of one workload):
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
 *   <li><b>indicative</b> when a candidate was measured in one round: its spread is unknown (shown as "—").</li>
 *   <li><b>tie</b> when every candidate has at least two rounds and the best differs from another candidate by no
 *       more than the larger of their two spreads (spread: max - min of the figure over a candidate's rounds, each
 *       round computed alone); <b>win</b> otherwise.</li>
 * </ol>
 */
final class ReportAnalysis {

    /** Metrics of the verdict, in the order shown. */
    public static final List<String> METRICS = List.of("throughput", "p99", "cost");

    /** Steps measured at least this long (30 min) also get soak figures. */
    public static final long SOAK_MIN_MS = 30 * 60_000L;

    private ReportAnalysis() {}

    /**
     * Soak figures of a step from its full window points ({epoch s, qps, p99 ms}, one per window, ascending):
     * measured windows are those starting at or after {@code measureStartMs}, the step's last (partial) window left
     * out. Null if the step was measured for less than {@link #SOAK_MIN_MS} or has fewer than two such windows.
     */
    public static Soak soak(StepInfo s, List<double[]> points, Long measureStartMs, List<Stall> stalls) {
        if (measureStartMs == null || s.measureMs() < SOAK_MIN_MS || points.size() < 3) {
            return null;
        }
        double from = measureStartMs / 1000.0;
        List<double[]> m = points.subList(0, points.size() - 1).stream().filter(p -> p[0] >= from).toList();
        int n = m.size();
        if (n < 2) {
            return null;
        }
        double sumT = 0;
        double sumQ = 0;
        for (double[] p : m) {
            sumT += (p[0] - from) / 3600;
            sumQ += p[1];
        }
        double meanT = sumT / n;
        double mean = sumQ / n;
        double sxy = 0;
        double sxx = 0;
        double var = 0;
        for (double[] p : m) {
            double dt = (p[0] - from) / 3600 - meanT;
            sxy += dt * (p[1] - mean);
            sxx += dt * dt;
            var += (p[1] - mean) * (p[1] - mean);
        }
        double slope = sxx > 0 ? sxy / sxx : 0;
        double firstEnd = m.get(0)[0] + 3600;
        double lastStart = m.get(n - 1)[0] - 3600;
        double first = m.stream().filter(p -> p[0] < firstEnd).mapToDouble(p -> p[1]).average().orElse(0);
        double last = m.stream().filter(p -> p[0] > lastStart).mapToDouble(p -> p[1]).average().orElse(0);
        double end = from + s.measureMs() / 1000.0;
        int count = 0;
        double stallSeconds = 0;
        for (Stall x : stalls) {
            if (x.runId().equals(s.runId()) && x.stepId() == s.stepId()) {
                count++;
                stallSeconds += Math.max(0, Math.min(end, x.endMs() / 1000.0) - Math.max(from, x.startMs() / 1000.0));
            }
        }
        return new Soak(s.runId(), s.stepId(), s.target(), s.workload(), s.threads(), n / 3600.0, mean,
                first, last, mean > 0 ? slope / mean * 100 : 0, mean > 0 ? Math.sqrt(var / n) / mean * 100 : 0,
                count, stallSeconds, stallSeconds / (s.measureMs() / 1000.0) * 100);
    }

    /** The workload's rows with deltas against the baseline target's row at the same thread count. */
    public static List<SummaryRow> withDeltas(List<SummaryRow> rows, String baseline) {
        if (baseline == null) {
            return rows;
        }
        Map<Integer, SummaryRow> base = new TreeMap<>();
        rows.stream().filter(r -> r.target().equals(baseline)).forEach(r -> base.put(r.threads(), r));
        List<SummaryRow> out = new ArrayList<>();
        for (SummaryRow r : rows) {
            SummaryRow b = base.get(r.threads());
            out.add(b == null ? r : r.withDelta(new Delta(pct(r.qps(), b.qps()), pct(r.tps(), b.tps()),
                    pct(r.avgMs(), b.avgMs()), pct(r.p95Ms(), b.p95Ms()), pct(r.p99Ms(), b.p99Ms()))));
        }
        return out;
    }

    /** (value - base) / base * 100, or null when base is 0 ({@link PercentChange#orNull}). */
    public static Double pct(double value, double base) {
        return PercentChange.orNull(value, base);
    }

    /** Every concurrency measured, ascending. */
    public static List<Integer> threadLevels(List<SummaryRow> rows) {
        return List.copyOf(new TreeSet<>(rows.stream().map(SummaryRow::threads).toList()));
    }

    /** Per target, QPS and P99 at each level; the peak is the {@link SweepPeak} among the levels it measured. */
    public static List<Sweep> sweep(List<SummaryRow> rows, List<Integer> levels) {
        Map<String, List<SummaryRow>> byTarget = byTarget(rows);
        List<Sweep> out = new ArrayList<>();
        for (Map.Entry<String, List<SummaryRow>> e : byTarget.entrySet()) {
            List<Double> qps = new ArrayList<>();
            List<Double> p99 = new ArrayList<>();
            for (int level : levels) {
                SummaryRow r = e.getValue().stream().filter(x -> x.threads() == level).findFirst().orElse(null);
                qps.add(r == null ? null : r.qps());
                p99.add(r == null ? null : r.p99Ms());
            }
            out.add(new Sweep(e.getKey(), qps, p99, SweepPeak.index(levels, qps)));
        }
        return out;
    }

    /** The target's row of highest QPS, lowest concurrency on equal QPS ({@link SweepPeak}). */
    public static SummaryRow peak(List<SummaryRow> targetRows) {
        int peak = SweepPeak.index(targetRows.stream().map(SummaryRow::threads).toList(),
                targetRows.stream().map(SummaryRow::qps).toList());
        if (peak < 0) {
            throw new java.util.NoSuchElementException("no summary row to take the peak of");
        }
        return targetRows.get(peak);
    }

    /**
     * The concurrency to compare P99 and cost at: {@code requested} if every target has it, else the highest level
     * every target was measured at; null if there is none.
     */
    public static Integer compareThreads(List<SummaryRow> rows, Integer requested) {
        Map<String, List<SummaryRow>> byTarget = byTarget(rows);
        TreeSet<Integer> common = null;
        for (List<SummaryRow> t : byTarget.values()) {
            TreeSet<Integer> levels = new TreeSet<>(t.stream().map(SummaryRow::threads).toList());
            if (common == null) {
                common = levels;
            } else {
                common.retainAll(levels);
            }
        }
        if (common == null || common.isEmpty()) {
            return null;
        }
        if (requested != null) {
            return common.contains(requested) ? requested : null;
        }
        return common.last();
    }

    /** Cost per QPS of every target of the workload that has a monthly cost. */
    public static List<Cost> costs(List<SummaryRow> rows, Map<String, TargetEnv> targets, Integer atThreads) {
        List<Cost> out = new ArrayList<>();
        for (Map.Entry<String, List<SummaryRow>> e : byTarget(rows).entrySet()) {
            TargetEnv t = targets.get(e.getKey());
            if (t == null || t.monthlyCost() == null || t.monthlyCost() <= 0) {
                continue;
            }
            double cost = t.monthlyCost();
            SummaryRow peak = peak(e.getValue());
            SummaryRow at = atThreads == null ? null : e.getValue().stream().filter(r -> r.threads() == atThreads)
                    .findFirst().orElse(null);
            Double atQps = at == null ? null : at.qps();
            out.add(new Cost(e.getKey(), cost, t.currency(), peak.qps(), peak.threads(), perThousandQps(cost,
                    peak.qps()), peak.qps() / cost * 1000, atQps, atQps == null ? null : perThousandQps(cost, atQps),
                    atQps == null ? null : atQps / cost * 1000, costItems(t.costItems(), cost)));
        }
        return out;
    }

    private static List<Cost.CostItem> costItems(Map<String, Double> items, double monthlyCost) {
        List<Cost.CostItem> out = new ArrayList<>();
        items.forEach((name, amount) -> out.add(new Cost.CostItem(name, amount, amount / monthlyCost * 100)));
        return out;
    }

    private static double perThousandQps(double cost, double qps) {
        return qps > 0 ? cost / qps * 1000 : Double.POSITIVE_INFINITY;
    }

    /**
     * The verdicts of a workload: best on peak throughput, on P99 at the compared concurrency and on cost per 1,000
     * peak QPS, each judged only on valid evidence (see the class comment).
     */
    public static List<Verdict> verdicts(WorkloadSummary w, Map<String, TargetEnv> targets, Evidence evidence) {
        Map<String, List<SummaryRow>> byTarget = byTarget(w.rows());
        List<Verdict> out = new ArrayList<>();
        if (byTarget.size() < 2) {
            for (String m : METRICS) {
                out.add(na(w.workload(), m, Text.of("verdict.reason.single")));
            }
            return out;
        }
        // throughput: each target's peak QPS, spread of that row's rounds; every row counts (the peak is chosen
        // among them, so a client-bound level could hide the real peak)
        List<Candidate> tput = new ArrayList<>();
        byTarget.forEach((t, rs) -> {
            SummaryRow p = peak(rs);
            tput.add(new Candidate(t, p.qps(), p.qpsSpread(), p.rounds()));
        });
        out.add(decide(w, "throughput", tput, true, null, "qps", allRows(byTarget, byTarget.keySet()), evidence));

        Integer at = w.atThreads();
        if (at == null) {
            out.add(na(w.workload(), "p99", Text.of("verdict.reason.noCommonThreads")));
        } else {
            List<Candidate> p99 = new ArrayList<>();
            byTarget.forEach((t, rs) -> rs.stream().filter(r -> r.threads() == at).findFirst()
                    .ifPresent(r -> p99.add(new Candidate(t, r.p99Ms(), r.p99SpreadMs(), r.rounds()))));
            Map<String, Set<Integer>> rows = new TreeMap<>();
            p99.forEach(c -> rows.put(c.target(), Set.of(at)));
            out.add(decide(w, "p99", p99, false, at, "ms", rows, evidence));
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
                SummaryRow p = peak(byTarget.get(c.target()));
                // cost per 1,000 QPS of each round at the peak concurrency: its spread
                List<Double> perRound = p.roundQps().stream().map(q -> perThousandQps(c.monthlyCost(), q)).toList();
                cost.add(new Candidate(c.target(), c.costPer1000Qps(), SummaryRow.spread(perRound), p.rounds()));
            }
            out.add(decide(w, "cost", cost, false, null, currencies.first(),
                    allRows(byTarget, cost.stream().map(Candidate::target).toList()), evidence));
        }
        return out;
    }

    /** Judged on the figures alone, without validity checks: for callers that have no step evidence. */
    public static List<Verdict> verdicts(WorkloadSummary w, Map<String, TargetEnv> targets) {
        return verdicts(w, targets, Evidence.NONE);
    }

    private static Map<String, Set<Integer>> allRows(Map<String, List<SummaryRow>> byTarget,
                                                     java.util.Collection<String> targets) {
        Map<String, Set<Integer>> rows = new TreeMap<>();
        targets.forEach(t -> rows.put(t, new TreeSet<>(byTarget.get(t).stream().map(SummaryRow::threads).toList())));
        return rows;
    }

    /**
     * A target's figure on one metric, the round-to-round spread of that figure (max - min over its rounds; 0 for
     * one round, where it is unknown) and the rounds behind it.
     */
    private record Candidate(String target, double value, double spread, int rounds) {}

    /** Fewer rounds than this leave the round-to-round spread unknown: a difference is indicative, not a win. */
    static final int MIN_ROUNDS_FOR_WIN = 2;

    private static Verdict na(String workload, String metric, Text reason) {
        return new Verdict(workload, metric, Verdict.NA, null, null, null, null, List.of(), null, null, null,
                List.of(new Reason(Verdict.NA, reason)), List.of());
    }

    private static Verdict decide(WorkloadSummary w, String metric, List<Candidate> candidates, boolean higherIsBetter,
                                  Integer threads, String unit, Map<String, Set<Integer>> rows, Evidence evidence) {
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
            return new Verdict(workload, metric, Verdict.NONE, null, null, null, null, List.of(), null, threads,
                    unit, failed, waived);
        }
        List<Candidate> sorted = new ArrayList<>(candidates);
        ToDoubleFunction<Candidate> key = higherIsBetter ? c -> -c.value() : Candidate::value;
        sorted.sort(Comparator.comparingDouble(key).thenComparing(Candidate::target));
        Candidate best = sorted.get(0);
        Candidate second = sorted.get(1);
        if (sorted.stream().anyMatch(c -> c.rounds() < MIN_ROUNDS_FOR_WIN)) {
            // a side measured once: its spread is unknown, so no difference can be shown to exceed it
            return new Verdict(workload, metric, Verdict.INDICATIVE, best.target(), best.value(), second.target(),
                    second.value(), List.of(), null, threads, unit, List.of(), waived);
        }
        List<String> tied = new ArrayList<>();
        for (Candidate c : sorted.subList(1, sorted.size())) {
            if (Math.abs(best.value() - c.value()) <= Math.max(best.spread(), c.spread())) {
                tied.add(c.target());
            }
        }
        return new Verdict(workload, metric, tied.isEmpty() ? Verdict.WIN : Verdict.TIE, best.target(), best.value(),
                second.target(), second.value(), tied, Math.max(best.spread(), second.spread()), threads, unit,
                List.of(), waived);
    }

    /**
     * Per target: the fairness profile of its latest step (steps in run order), the median over its steps of the RTT
     * probe's median and P99, and its highest step client CPU with that figure's source.
     */
    public static List<Environment.TargetFairness> fairness(java.util.Collection<String> targets,
                                                            List<StepData> steps) {
        Map<String, double[]> rtt = RttCheck.byTarget(steps);
        List<Environment.TargetFairness> out = new ArrayList<>();
        for (String t : new TreeSet<>(targets)) {
            List<StepData> mine = steps.stream().filter(s -> s.info().target().equals(t)).toList();
            if (mine.isEmpty()) {
                continue;
            }
            StepData latest = mine.get(mine.size() - 1);
            StepData cpu = mine.stream().filter(s -> s.clientCpuPct() != null)
                    .max(Comparator.comparingDouble(StepData::clientCpuPct)).orElse(null);
            double[] r = rtt.get(t);
            String method = mine.stream().filter(s -> s.probe() != null && s.probe().method() != null)
                    .map(s -> s.probe().method()).reduce((a, b) -> b).orElse(null);
            out.add(new Environment.TargetFairness(t, latest.profile(), r == null ? null : r[0] / 1000,
                    r == null ? null : r[1] / 1000, r == null ? 0 : (int) r[2], method,
                    cpu == null ? null : cpu.clientCpuPct(), cpu == null ? null : cpu.cpuSource()));
        }
        return out;
    }

    /**
     * Where one product was measured with one node and with more (e.g. a primary and a primary plus read-only
     * nodes): peak throughput of each and the ratio, per workload, for the {@link ScaleOut} pairs of its targets.
     */
    public static List<ScaleOutRow> scaleOut(List<WorkloadSummary> workloads, Map<String, TargetEnv> targets) {
        List<ScaleOutRow> out = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            Map<String, List<SummaryRow>> byTarget = byTarget(w.rows());
            List<ScaleOut.Target> measured = new ArrayList<>();
            for (String t : byTarget.keySet()) {
                TargetEnv env = targets.get(t);
                if (env != null) {
                    measured.add(new ScaleOut.Target(t, env.product(), env.nodes()));
                }
            }
            for (ScaleOut.Pair pair : ScaleOut.pairs(measured)) {
                double s = peak(byTarget.get(pair.single())).qps();
                double m = peak(byTarget.get(pair.multi())).qps();
                out.add(new ScaleOutRow(w.workload(), pair.product(), pair.single(), s, pair.multi(), pair.nodes(), m,
                        ScaleOut.ratio(m, s)));
            }
        }
        return out;
    }

    static Map<String, List<SummaryRow>> byTarget(List<SummaryRow> rows) {
        Map<String, List<SummaryRow>> m = new TreeMap<>();
        rows.forEach(r -> m.computeIfAbsent(r.target(), k -> new ArrayList<>()).add(r));
        return m;
    }
}
