package io.tailstream.reporter.report;

import io.tailstream.reporter.report.Evidence.StepData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The validity checks behind the verdicts, decided from the archived evidence alone: a step failed, was interrupted
 * or never ended; a step was client-bound; commit durability, replication wait, torn-page protection or isolation
 * differ or are unknown among the targets (their {@link FairnessProfile}s); a warm-up was absent or unsettled; a
 * step's error share is over the limit; the data was not larger than the buffer pool where the plan expected it
 * ({@link DataSizeCheck}); the probe RTTs differ enough to matter ({@link RttCheck}). Each failed check is a {@link
 * Problem}; the {@link Checklist} lists the same problems, so a verdict's reasons are always among its findings.
 * Stateless and thread safe.
 */
final class ValidityChecks {

    /** The load generator's CPU above this may make its own bottleneck look like the database's (plans may set it). */
    public static final double MAX_CLIENT_CPU_PCT = 50;
    /** Failed transactions above this share (in %) of a step's measured transactions make its figures suspect. */
    public static final double MAX_ERROR_PCT = 1;
    /** Warm-up is long enough when its last quarter's QPS is within this share of the measured QPS. */
    public static final double WARMUP_SETTLED_TOLERANCE = 0.10;

    /** The checks a verdict applies, in the order its reasons are listed. */
    public static final List<String> VERDICT_CHECKS = List.of("completed", "clientBound", "durability", "isolation",
            "warmup", "errors", "dataSize", "rtt");
    /** The checks a plan may waive with {@code accept: [...]} (a failed or interrupted step cannot be waived). */
    public static final List<String> WAIVABLE = VERDICT_CHECKS.subList(1, VERDICT_CHECKS.size());

    private ValidityChecks() {}

    /**
     * A check that failed for a step, a (target, workload) or a set of targets of a workload.
     *
     * @param check    one of {@link #VERDICT_CHECKS}
     * @param workload the workload it concerns
     * @param targets  the targets it concerns
     * @param step     the step it concerns, or null (a cross-target or per-workload problem)
     * @param text     what failed, naming the targets and figures (the same sentence in the checklist and in the
     *                 verdict's reasons)
     */
    public record Problem(String check, String workload, Set<String> targets, StepInfo step, Text text) {
        public Problem {
            targets = Set.copyOf(targets);
        }
    }

    /**
     * Every problem of the given rows of a workload, in {@link #VERDICT_CHECKS} order: those of their steps,
     * those of the targets' data size, and the cross-target ones (durability, isolation, RTT) among the
     * targets compared. Empty when the rows have no steps in the evidence.
     */
    static List<Problem> problems(Evidence e, WorkloadSummary w, Map<String, Set<Integer>> rows) {
        List<StepData> compared = e.stepsOf(w.workload(), rows);
        if (compared.isEmpty()) {
            return List.of();
        }
        List<Problem> out = new ArrayList<>(stepProblems(compared, e));
        // the data size is expected of a target on a workload, whatever the concurrency: judged on all its steps
        out.addAll(DataSizeCheck.problems(e.steps().stream().filter(s -> s.info().workload().equals(w.workload())
                && rows.containsKey(s.info().target())).toList()));
        out.addAll(durabilityProblems(w.workload(), compared));
        out.addAll(isolationProblems(w.workload(), compared));
        RttCheck.problem(w, rows.keySet(), e.steps()).ifPresent(out::add);
        out.sort(Comparator.comparingInt(p -> VERDICT_CHECKS.indexOf(p.check())));
        return out;
    }

    /** Problems of single steps: outcome, client CPU, warm-up, error share. */
    static List<Problem> stepProblems(List<StepData> steps, Evidence e) {
        List<Problem> out = new ArrayList<>();
        for (StepData s : steps) {
            StepInfo i = s.info();
            String label = step(i);
            if (!"completed".equals(i.outcome())) {
                out.add(problem("completed", s, i.outcome() == null ? Text.of("finding.notEnded", label)
                        : Text.of("finding.outcome", label, i.outcome())));
            }
            double limit = e.settings(i.runId()).clientCpuLimitPct();
            if (s.embedded()) {
                // the database runs on the load generator's threads: its CPU is the database's, nothing to judge
            } else if (clientBound(s.clientCpuPct(), false, limit)) {
                String key = StepData.PROCESS.equals(s.cpuSource()) ? "finding.clientCpuProcess" : "finding.clientCpu";
                out.add(problem("clientBound", s, Text.of(key, label, fmt(s.clientCpuPct()), fmt(limit))));
            } else if (s.clientBound()) {
                out.add(problem("clientBound", s, Text.of("finding.clientBoundFlag", label,
                        s.clientCpuPct() == null ? "-" : fmt(s.clientCpuPct()), fmt(limit))));
            }
            if (i.warmupMs() <= 0 || s.warmupSamples() == 0) {
                out.add(problem("warmup", s, Text.of("finding.noWarmup", label, i.warmupMs() / 1000.0,
                        s.warmupSamples())));
            }
            double[] settle = settledFigures(s);
            if (settle != null && Math.abs(settle[2]) > WARMUP_SETTLED_TOLERANCE) {
                out.add(problem("warmup", s, Text.of("finding.warmupUnsettled", label, fmt(settle[0]), fmt(settle[1]),
                        fmt(settle[2] * 100))));
            }
            Double errorPct = s.errorPct();
            if (errorPct != null && errorPct > MAX_ERROR_PCT) {
                out.add(problem("errors", s, Text.of("finding.stepErrors", label, fmt(errorPct), s.measuredErrors(),
                        s.measuredSamples(), fmt(MAX_ERROR_PCT))));
            }
        }
        return out;
    }

    /** The client-bound rule: the step's client CPU over the run's limit, or the producer flagged the step. */
    static boolean clientBound(Double cpuPct, boolean flaggedByProducer, double limitPct) {
        return flaggedByProducer || cpuPct != null && cpuPct > limitPct;
    }

    private static Problem problem(String check, StepData s, Text t) {
        return new Problem(check, s.info().workload(), Set.of(s.info().target()), s.info(), t);
    }

    /** {warm-up tail QPS, measured QPS, relative difference}, or null when not decidable. */
    static double[] settledFigures(StepData s) {
        if (s.warmupTailQps() == null || s.measuredQps() == null || s.measuredQps() == 0) {
            return null;
        }
        return new double[] {s.warmupTailQps(), s.measuredQps(),
                (s.warmupTailQps() - s.measuredQps()) / s.measuredQps()};
    }

    /**
     * Commit durability, replication wait and torn-page protection of the targets behind the steps: a problem for
     * each of them that is unknown for a step, or not the same for every step (within a target too).
     */
    static List<Problem> durabilityProblems(String workload, List<StepData> steps) {
        return crossProblems("durability", workload, steps, List.of(
                new AspectOf("durability", FairnessProfile::durability),
                new AspectOf("replication", FairnessProfile::replication),
                new AspectOf("tornPages", FairnessProfile::tornPages)));
    }

    /** The isolation levels' behaviour (not their names) across the targets behind the steps. */
    static List<Problem> isolationProblems(String workload, List<StepData> steps) {
        return crossProblems("isolation", workload, steps,
                List.of(new AspectOf("isolation", FairnessProfile::isolation)));
    }

    private record AspectOf(String name, Function<FairnessProfile, FairnessProfile.Aspect> get) {}

    private static List<Problem> crossProblems(String check, String workload, List<StepData> steps,
                                               List<AspectOf> aspects) {
        Set<String> targets = new TreeSet<>(steps.stream().map(s -> s.info().target()).toList());
        if (targets.size() < 2) {
            return List.of();
        }
        List<Problem> out = new ArrayList<>();
        for (AspectOf a : aspects) {
            // per target, the distinct values its steps had (a target re-run after a change has two)
            Map<String, Set<String>> values = new TreeMap<>();
            Set<String> keys = new LinkedHashSet<>();
            boolean unknown = false;
            for (StepData s : steps) {
                FairnessProfile.Aspect x = a.get().apply(s.profile());
                values.computeIfAbsent(s.info().target(), k -> new LinkedHashSet<>()).add(describe(x));
                if (x.unknown()) {
                    unknown = true;
                } else {
                    keys.add(x.compareKey());
                }
            }
            if (unknown || keys.size() > 1) {
                List<String> perTarget = new ArrayList<>();
                values.forEach((t, v) -> perTarget.add(t + ": " + String.join(" / ", v)));
                out.add(new Problem(check, workload, targets, null, Text.of("finding." + a.name()
                        + (unknown ? "Unknown" : "Differs"), workload, String.join("; ", perTarget))));
            }
        }
        return out;
    }

    /** "no-os (innodb_flush_log_at_trx_commit=2, log_bin=OFF)". */
    private static String describe(FairnessProfile.Aspect a) {
        return a.value() + (a.basis().isEmpty() ? "" : " (" + String.join(", ", a.basis()) + ")");
    }

    /** A step as findings name it: {@code target · workload · threads thr · round (run#step)}. */
    static String step(StepInfo s) {
        return s.target() + " · " + s.workload() + " · " + s.threads() + " thr · r" + s.round() + " (" + s.runId()
                + "#" + s.stepId() + ")";
    }

    /** A figure as findings show it: one decimal. */
    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
