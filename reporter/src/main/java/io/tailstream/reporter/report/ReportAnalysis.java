package io.tailstream.reporter.report;

import io.tailstream.analysis.PercentChange;
import io.tailstream.analysis.ScaleOut;
import io.tailstream.analysis.SoakTrend;
import io.tailstream.analysis.SweepPeak;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.SummaryRow.Delta;
import io.tailstream.reporter.report.WorkloadSummary.Sweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The judgements of a report, as pure functions of its exact summary rows, the targets and the evidence behind them:
 * deltas to a baseline, concurrency sweeps, cost per QPS, scale-out ratios ({@link Verdicts} has the verdicts).
 * Stateless and thread safe.
 */
final class ReportAnalysis {

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
        if (m.size() < 2) {
            return null;
        }
        SoakTrend trend = new SoakTrend();
        m.forEach(p -> trend.add(p[0], p[1]));
        double end = from + s.measureMs() / 1000.0;
        int count = 0;
        double stallSeconds = 0;
        for (Stall x : stalls) {
            if (x.runId().equals(s.runId()) && x.stepId() == s.stepId()) {
                count++;
                stallSeconds += Math.max(0, Math.min(end, x.endMs() / 1000.0) - Math.max(from, x.startMs() / 1000.0));
            }
        }
        return new Soak(s.runId(), s.stepId(), s.target(), s.workload(), s.threads(), m.size() / 3600.0,
                trend.meanQps(), trend.firstHourQps(), trend.lastHourQps(), trend.trendPctPerHour(),
                trend.jitterPct(), count, stallSeconds, stallSeconds / (s.measureMs() / 1000.0) * 100);
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
     * The target's TPC-C row of highest tpmC, lowest concurrency on equal tpmC ({@link SweepPeak}), or null when the
     * workload has no TPC-C figures for it.
     */
    public static TpccRow tpccPeak(WorkloadSummary w, String target) {
        List<TpccRow> rows = w.tpcc().stream().filter(r -> r.target().equals(target)).toList();
        int peak = SweepPeak.index(rows.stream().map(TpccRow::threads).toList(),
                rows.stream().map(TpccRow::tpmC).toList());
        return peak < 0 ? null : rows.get(peak);
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

    static double perThousandQps(double cost, double qps) {
        return qps > 0 ? cost / qps * 1000 : Double.POSITIVE_INFINITY;
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
