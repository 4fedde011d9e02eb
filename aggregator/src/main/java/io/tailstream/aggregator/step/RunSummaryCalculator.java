package io.tailstream.aggregator.step;

import io.tailstream.analysis.Plateau;
import io.tailstream.analysis.RoundStats;
import io.tailstream.analysis.ScaleOut;
import io.tailstream.analysis.SweepPeak;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * A {@link RunSummary} as a pure function of a {@link RunState}: groups the run's step summaries into rounds,
 * sweeps and scale-out pairs with the definitions documented on {@link RunSummary}, each applied by its rule in
 * {@code io.tailstream.analysis} ({@link RoundStats}, {@link SweepPeak}, {@link Plateau}, {@link ScaleOut}).
 * Only steps with a {@code StepStarted} (which says target, workload, threads and round) and a scope that measured
 * at least one sample take part. The step figures are the exact ones of version-2 step summaries (successful work
 * over each step's exact measured span), so the pooled figures are Σ statements (transactions) of successful measured
 * samples / Σ exact spans. Stateless and thread safe.
 */
final class RunSummaryCalculator {

    private RunSummaryCalculator() {}

    /**
     * The plateau rule of the run's plan ({@code RunStarted.settings} {@code plateau}), or null when the plan set
     * none or its values are out of the rule's range (the summary then uses {@link Plateau#DEFAULT} and says so).
     */
    static Plateau planPlateau(RunSettings settings) {
        RunSettings.PlateauSetting p = settings.plateau();
        return p == null ? null : Plateau.ifValid(p.minGainPct(), p.patience());
    }

    public static RunSummary compute(RunState run, long atEpochMs) {
        Plateau plan = run.plateauMinGainPct() == null || run.plateauPatience() == null ? null
                : new Plateau(run.plateauMinGainPct(), run.plateauPatience());
        Plateau rule = plan == null ? Plateau.DEFAULT : plan;

        // (target, workload, threads, op) -> rounds, in step order
        Map<GroupKey, List<Round>> groups = new TreeMap<>();
        TreeSet<Integer> summarized = new TreeSet<>();
        for (RunState.StepFigures f : run.figures().values()) {
            if (WindowStats.ALL_OPS.equals(f.op())) {
                summarized.add(f.stepId());
            }
            RunState.StepDesc d = run.steps().get(String.valueOf(f.stepId()));
            if (d == null || f.count() == 0) {
                continue;
            }
            groups.computeIfAbsent(new GroupKey(d.target(), d.workload(), d.threads(), f.op()), k -> new ArrayList<>())
                    .add(new Round(d, f));
        }
        groups.values().forEach(rs -> rs.sort(Comparator.comparingInt(r -> r.desc().stepId())));

        List<RunSummary.RoundStats> rounds = new ArrayList<>();
        groups.forEach((k, rs) -> rounds.add(roundStats(k, rs)));

        List<RunSummary.Sweep> sweeps = new ArrayList<>();
        // (target, workload) -> threads -> rounds of the "*" scope
        Map<List<String>, Map<Integer, List<Round>>> sweepInput = new TreeMap<>(LIST_ORDER);
        groups.forEach((k, rs) -> {
            if (WindowStats.ALL_OPS.equals(k.op())) {
                sweepInput.computeIfAbsent(List.of(k.target(), k.workload()), x -> new TreeMap<>())
                        .put(k.threads(), rs);
            }
        });
        Map<List<String>, RunSummary.Sweep> allRounds = new TreeMap<>(LIST_ORDER);
        sweepInput.forEach((tw, levels) -> {
            RunSummary.Sweep all = sweep(tw, RunSummary.ALL_ROUNDS, levels, rule);
            allRounds.put(tw, all);
            sweeps.add(all);
            TreeSet<Integer> roundNumbers = new TreeSet<>();
            levels.values().forEach(rs -> rs.forEach(r -> roundNumbers.add(r.desc().round())));
            for (int round : roundNumbers) {
                Map<Integer, List<Round>> ofRound = new TreeMap<>();
                levels.forEach((threads, rs) -> {
                    List<Round> these = rs.stream().filter(r -> r.desc().round() == round).toList();
                    if (!these.isEmpty()) {
                        ofRound.put(threads, these);
                    }
                });
                sweeps.add(sweep(tw, round, ofRound, rule));
            }
        });

        List<Integer> pending = new ArrayList<>();
        for (RunState.StepDesc d : run.steps().values()) {
            if (!summarized.contains(d.stepId())) {
                pending.add(d.stepId());
            }
        }
        pending.sort(Comparator.naturalOrder());
        return new RunSummary(run.runId(), rounds, sweeps, scaleOut(run, allRounds), rule.minGainPct(),
                rule.patience(), plan == null ? "default" : "plan", summarized.size(), pending,
                run.ended() && pending.isEmpty(), atEpochMs, RunSummary.VERSION, run.deadLetters());
    }

    private static RunSummary.RoundStats roundStats(GroupKey k, List<Round> rs) {
        double seconds = 0;
        long okQueries = 0;
        long ok = 0;
        for (Round r : rs) {
            seconds += r.figures().seconds();
            okQueries += r.figures().okQueries();
            ok += r.figures().count() - r.figures().errors();
        }
        return new RunSummary.RoundStats(k.target(), k.workload(), k.threads(), k.op(), rs.size(),
                rs.stream().map(r -> r.desc().stepId()).toList(),
                figure(rs, r -> r.figures().qps()), figure(rs, r -> r.figures().tps()),
                figure(rs, r -> r.figures().meanMicros()), figure(rs, r -> r.figures().p95Micros()),
                figure(rs, r -> r.figures().p99Micros()),
                seconds > 0 ? okQueries / seconds : 0, seconds > 0 ? ok / seconds : 0);
    }

    /** Mean, sample standard deviation (n - 1; null with one round), min and max of a figure over the rounds. */
    static RunSummary.Figure figure(List<Round> rs, ToDoubleFunction<Round> value) {
        RoundStats s = RoundStats.of(rs.stream().mapToDouble(value).toArray());
        return new RunSummary.Figure(s.mean(), s.sampleStdDev(), s.min(), s.max());
    }

    private static RunSummary.Sweep sweep(List<String> tw, int round, Map<Integer, List<Round>> levels,
                                          Plateau rule) {
        List<RunSummary.Level> out = new ArrayList<>();
        for (Map.Entry<Integer, List<Round>> e : levels.entrySet()) {
            List<Round> rs = e.getValue();
            double seconds = rs.stream().mapToDouble(r -> r.figures().seconds()).sum();
            long okQueries = rs.stream().mapToLong(r -> r.figures().okQueries()).sum();
            double pooled = seconds > 0 ? okQueries / seconds : 0;
            double mean = rs.stream().mapToDouble(r -> r.figures().qps()).sum() / rs.size();
            out.add(new RunSummary.Level(e.getKey(), pooled, mean, rs.size()));
        }
        int peak = SweepPeak.index(out.stream().map(RunSummary.Level::threads).toList(),
                out.stream().map(RunSummary.Level::qps).toList());
        int plateau = rule.begin(out.stream().map(RunSummary.Level::plateauQps).toList());
        RunSummary.Level p = out.get(peak);
        return new RunSummary.Sweep(tw.get(0), tw.get(1), round, out, p.qps(), p.threads(),
                plateau < 0 ? null : out.get(plateau).threads(), plateau < 0 ? null : out.get(plateau).plateauQps());
    }

    /**
     * Per workload: the {@link ScaleOut} pairs of its targets, at their peaks and at every thread count both measured.
     * A target is described by its latest step (as the report does).
     */
    private static List<RunSummary.ScaleOut> scaleOut(RunState run, Map<List<String>, RunSummary.Sweep> sweeps) {
        Map<String, RunState.StepDesc> targets = new TreeMap<>();
        run.steps().values().stream().sorted(Comparator.comparingInt(RunState.StepDesc::stepId))
                .forEach(d -> targets.put(d.target(), d));
        // workload -> its targets
        Map<String, List<ScaleOut.Target>> byWorkload = new TreeMap<>();
        sweeps.keySet().forEach(tw -> {
            RunState.StepDesc d = targets.get(tw.get(0));
            if (d != null) {
                byWorkload.computeIfAbsent(tw.get(1), w -> new ArrayList<>())
                        .add(new ScaleOut.Target(tw.get(0), d.product(), d.nodes()));
            }
        });
        List<RunSummary.ScaleOut> out = new ArrayList<>();
        byWorkload.forEach((workload, ts) -> {
            for (ScaleOut.Pair pair : ScaleOut.pairs(ts)) {
                RunSummary.Sweep s = sweeps.get(List.of(pair.single(), workload));
                RunSummary.Sweep m = sweeps.get(List.of(pair.multi(), workload));
                out.add(new RunSummary.ScaleOut(workload, RunSummary.ScaleOut.PEAK, pair.product(), pair.single(),
                        pair.multi(), pair.nodes(), s.peakThreads(), s.peakQps(), m.peakThreads(), m.peakQps(),
                        ScaleOut.ratio(m.peakQps(), s.peakQps())));
                for (RunSummary.Level sl : s.levels()) {
                    for (RunSummary.Level ml : m.levels()) {
                        if (sl.threads() == ml.threads()) {
                            out.add(new RunSummary.ScaleOut(workload, RunSummary.ScaleOut.THREADS, pair.product(),
                                    pair.single(), pair.multi(), pair.nodes(), sl.threads(), sl.qps(), ml.threads(),
                                    ml.qps(), ScaleOut.ratio(ml.qps(), sl.qps())));
                        }
                    }
                }
            }
        });
        return out;
    }

    private static final Comparator<List<String>> LIST_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private record GroupKey(String target, String workload, int threads, String op) implements Comparable<GroupKey> {
        private static final Comparator<GroupKey> ORDER = Comparator.comparing(GroupKey::target)
                .thenComparing(GroupKey::workload).thenComparingInt(GroupKey::threads).thenComparing(GroupKey::op);

        @Override
        public int compareTo(GroupKey o) {
            return ORDER.compare(this, o);
        }
    }

    /** One step of a group. */
    record Round(RunState.StepDesc desc, RunState.StepFigures figures) {}
}
