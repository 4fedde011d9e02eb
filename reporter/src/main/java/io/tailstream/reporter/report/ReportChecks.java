package io.tailstream.reporter.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.report.WorkloadSummary.Sweep;
import io.tailstream.schemas.event.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The methodology checklist and the validity checks behind the verdicts, decided from the archived data alone.
 * Both read the same {@link Problem}s, so a verdict's reasons are always among the checklist's findings. A checklist
 * item is {@code pass}, {@code flag} (with the offending steps, rows or targets) or {@code na} (the archive lacks the
 * data to decide, e.g. no client CPU figures). Stateless and thread safe.
 */
final class ReportChecks {

    /** Fewer rounds than this cannot show run-to-run variance. */
    public static final int MIN_ROUNDS = 3;
    /** The load generator's CPU above this may make its own bottleneck look like the database's (plans may set it). */
    public static final double MAX_CLIENT_CPU_PCT = 50;
    /** Failed transactions above this share (in %) of a step's measured transactions make its figures suspect. */
    public static final double MAX_ERROR_PCT = 1;
    /** Probe RTTs further apart than this factor (slower / faster target) may matter ... */
    public static final double MAX_RTT_RATIO = 1.5;
    /**
     * ... when the difference, paid once per statement, adds more than this share to the faster target's mean
     * transaction latency.
     */
    public static final double MAX_RTT_LATENCY_SHARE = 0.05;
    /** Warm-up is long enough when its last quarter's QPS is within this share of the measured QPS. */
    public static final double WARMUP_SETTLED_TOLERANCE = 0.10;

    /** The checks a verdict applies, in the order its reasons are listed. */
    public static final List<String> VERDICT_CHECKS = List.of("completed", "clientBound", "durability", "isolation",
            "warmup", "errors", "dataSize", "rtt");
    /** The checks a plan may waive with {@code accept: [...]} (a failed or interrupted step cannot be waived). */
    public static final List<String> WAIVABLE = VERDICT_CHECKS.subList(1, VERDICT_CHECKS.size());

    /** Step option (reserved key) by which a plan says the workload's data should exceed the buffer pool. */
    public static final String EXPECT_DATA_LARGER = "expect.dataLargerThanBufferPool";
    /** Target variable the producer adds with the workload's data plus index bytes. */
    public static final String DATA_BYTES = FairnessProfile.DATA_BYTES;

    private ReportChecks() {}

    /**
     * The RTT probe taken before a step (µs).
     *
     * @param method how it was measured, as the producer describes it
     */
    public record Probe(double p50Us, double p99Us, int samples, String method) {}

    /**
     * What the checks need of one step.
     *
     * @param warmupSamples   samples flagged as warm-up
     * @param warmupTailQps   mean QPS of the last quarter of the warm-up windows, or null without windows
     * @param measuredQps     mean QPS of the measured windows, or null
     * @param clientCpuPct    the client's CPU during the step, % of its machine: the load generator's own threads
     *                        ({@code cpuSource} {@code loadGen}) or, in archives without that figure, the whole
     *                        process ({@code process}); null without figures
     * @param clientBound     the producer flagged the step client-bound
     * @param variables       the target's variables captured at the step's start
     * @param product         the target's product name, or null
     * @param cpuSource       {@code loadGen} or {@code process}, or null with {@code clientCpuPct}
     * @param measuredSamples measured (non-warm-up) transactions, or null when the samples are not archived
     * @param measuredErrors  of those, the failed ones
     * @param probe           the RTT probe before the step, or null
     */
    public record StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                           Double clientCpuPct, boolean clientBound, Map<String, String> variables, String product,
                           String cpuSource, Long measuredSamples, Long measuredErrors, Probe probe) {
        public StepData {
            variables = variables == null ? Map.of() : Map.copyOf(variables);
        }

        public StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                        Double clientCpuPct, boolean clientBound, Map<String, String> variables) {
            this(info, warmupSamples, warmupTailQps, measuredQps, clientCpuPct, clientBound, variables, null,
                    clientCpuPct == null ? null : LOAD_GEN, null, null, null);
        }

        public StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                        Double clientCpuPct, boolean clientBound) {
            this(info, warmupSamples, warmupTailQps, measuredQps, clientCpuPct, clientBound, Map.of());
        }

        /** Failed share of the measured transactions in %, or null when unknown. */
        public Double errorPct() {
            return measuredSamples == null || measuredErrors == null || measuredSamples == 0 ? null
                    : measuredErrors * 100.0 / measuredSamples;
        }
    }

    /** CPU of the load generator's own threads. */
    public static final String LOAD_GEN = "loadGen";
    /** CPU of the whole client process (older archives). */
    public static final String PROCESS = "process";

    /**
     * What a run's plan says about the checks.
     *
     * @param clientCpuLimitPct the client-bound limit the run used ({@code clientCpuLimitPct}, default 50)
     * @param accept            checks the plan waives for verdicts
     * @param unknownAccept     names in the plan's {@code accept} that are not checks a plan may waive (ignored)
     */
    public record RunSettings(double clientCpuLimitPct, Set<String> accept, List<String> unknownAccept) {
        public RunSettings {
            accept = Set.copyOf(accept);
            unknownAccept = List.copyOf(unknownAccept);
        }

        public static final RunSettings DEFAULT = new RunSettings(MAX_CLIENT_CPU_PCT, Set.of(), List.of());

        /**
         * From a run's settings as archived ({@code runs.settings}: {@link io.tailstream.schemas.event.RunSettings}
         * JSON of either version): {@code clientCpuLimitPct} and {@code accept}.
         *
         * @throws IllegalStateException when the settings are not JSON, naming the run
         */
        public static RunSettings of(String runId, String settingsJson) {
            if (settingsJson == null || settingsJson.isBlank()) {
                return DEFAULT;
            }
            io.tailstream.schemas.event.RunSettings s;
            try {
                s = Json.read(settingsJson, io.tailstream.schemas.event.RunSettings.class);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("runs dataset: settings of run " + runId + ": " + e.getMessage(), e);
            }
            if (s == null) {
                return DEFAULT;
            }
            Set<String> accept = new TreeSet<>();
            List<String> unknown = new ArrayList<>();
            (s.accept() == null ? List.<String>of() : s.accept())
                    .forEach(x -> (WAIVABLE.contains(x) ? accept : unknown).add(x));
            return new RunSettings(s.clientCpuLimitPct() == null ? MAX_CLIENT_CPU_PCT : s.clientCpuLimitPct(), accept,
                    unknown);
        }
    }

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
     * The evidence behind a report: every step with what the checks need, and the plans' settings per run.
     * Immutable.
     */
    public record Evidence(List<StepData> steps, Map<String, RunSettings> runs) {
        public Evidence {
            steps = List.copyOf(steps);
            runs = Map.copyOf(runs);
        }

        /** No steps: verdicts are judged on the figures alone (for callers without step data). */
        public static final Evidence NONE = new Evidence(List.of(), Map.of());

        RunSettings settings(String runId) {
            return runs.getOrDefault(runId, RunSettings.DEFAULT);
        }

        /** The steps behind the given rows of a workload (target -> threads compared). */
        List<StepData> stepsOf(String workload, Map<String, Set<Integer>> rows) {
            return steps.stream().filter(s -> s.info().workload().equals(workload)
                    && rows.getOrDefault(s.info().target(), Set.of()).contains(s.info().threads())).toList();
        }

        /**
         * Every problem of the given rows of a workload, in {@link #VERDICT_CHECKS} order: those of their steps,
         * those of the targets' data size, and the cross-target ones (durability, isolation, RTT) among the
         * targets compared. Empty when the rows have no steps in the evidence.
         */
        List<Problem> problems(WorkloadSummary w, Map<String, Set<Integer>> rows) {
            List<StepData> compared = stepsOf(w.workload(), rows);
            if (compared.isEmpty()) {
                return List.of();
            }
            List<Problem> out = new ArrayList<>(stepProblems(compared, this));
            // the data size is expected of a target on a workload, whatever the concurrency: judged on all its steps
            out.addAll(dataSizeProblems(steps.stream().filter(s -> s.info().workload().equals(w.workload())
                    && rows.containsKey(s.info().target())).toList()));
            out.addAll(durabilityProblems(w.workload(), compared));
            out.addAll(isolationProblems(w.workload(), compared));
            rttProblem(w, rows.keySet(), steps).ifPresent(out::add);
            out.sort(java.util.Comparator.comparingInt(p -> VERDICT_CHECKS.indexOf(p.check())));
            return out;
        }

        /** True when every run behind the steps waives the check. */
        boolean waived(String check, Collection<StepData> behind) {
            return !behind.isEmpty() && behind.stream().allMatch(s -> settings(s.info().runId()).accept()
                    .contains(check));
        }
    }

    // ---- the checklist ----

    public static List<Check> checks(Evidence e, List<WorkloadSummary> workloads) {
        List<StepData> steps = e.steps();
        List<Problem> stepProblems = stepProblems(steps, e);
        Map<String, List<StepData>> byWorkload = new TreeMap<>();
        steps.forEach(s -> byWorkload.computeIfAbsent(s.info().workload(), k -> new ArrayList<>()).add(s));
        // the cross-target findings are those of the comparisons the verdicts make, so that the two never differ
        Map<String, Set<Text>> cross = new TreeMap<>();
        for (WorkloadSummary w : workloads) {
            for (Verdict v : ReportAnalysis.verdicts(w, Map.of(), e)) {
                java.util.stream.Stream.concat(v.reasons().stream(), v.waived().stream())
                        .forEach(r -> cross.computeIfAbsent(r.check(), k -> new LinkedHashSet<>()).add(r.text()));
            }
        }
        List<Check> out = new ArrayList<>();
        out.add(of("warmup", texts(stepProblems, "warmup", "finding.noWarmup"), e, !steps.isEmpty(), null));
        out.add(warmupSettled(steps, stepProblems, e));
        out.add(rounds(workloads));
        out.add(beyondPeak(workloads));
        out.add(clientCpu(steps, stepProblems, e));
        out.add(rtt(workloads, steps, cross, e));
        out.add(crossTarget("durability", byWorkload, cross, e));
        out.add(crossTarget("isolation", byWorkload, cross, e));
        out.add(of("errors", texts(stepProblems, "errors", null), e,
                steps.stream().anyMatch(s -> s.errorPct() != null), null));
        out.add(of("completed", texts(stepProblems, List.of("completed", "errors")), null, !steps.isEmpty(), null));
        out.add(dataSize(steps, e));
        return out;
    }

    static String step(StepInfo s) {
        return s.target() + " · " + s.workload() + " · " + s.threads() + " thr · r" + s.round() + " (" + s.runId()
                + "#" + s.stepId() + ")";
    }

    /**
     * A checklist item: flag with the findings, pass (with {@code passNote}) or n/a; when a plan waives the verdict
     * check of a flagged item, a last finding says so.
     */
    private static Check of(String id, List<Text> findings, Evidence e, boolean decidable, Text passNote) {
        if (!decidable) {
            return new Check(id, "na", findings);
        }
        if (findings.isEmpty()) {
            return new Check(id, "pass", passNote == null ? List.of() : List.of(passNote));
        }
        List<Text> f = new ArrayList<>(findings);
        String verdictCheck = verdictCheck(id);
        if (e != null && verdictCheck != null) {
            Set<String> runs = new TreeSet<>();
            e.runs().forEach((run, s) -> {
                if (s.accept().contains(verdictCheck)) {
                    runs.add(run);
                }
            });
            if (!runs.isEmpty()) {
                f.add(Text.of("finding.waived", verdictCheck, String.join(", ", runs)));
            }
        }
        return new Check(id, "flag", f);
    }

    /** The verdict check a checklist item feeds, or null. */
    static String verdictCheck(String checklistId) {
        return switch (checklistId) {
            case "warmup", "warmupSettled" -> "warmup";
            case "clientCpu" -> "clientBound";
            case "rtt", "durability", "isolation", "errors", "dataSize" -> checklistId;
            default -> null;
        };
    }

    private static List<Text> texts(List<Problem> problems, String check, String key) {
        return problems.stream().filter(p -> p.check().equals(check) && (key == null || p.text().key().equals(key)))
                .map(Problem::text).toList();
    }

    private static List<Text> texts(List<Problem> problems, List<String> checks) {
        return problems.stream().filter(p -> checks.contains(p.check())).map(Problem::text).toList();
    }

    static Check warmup(List<StepData> steps) {
        return of("warmup", texts(stepProblems(steps, Evidence.NONE), "warmup", "finding.noWarmup"), null,
                !steps.isEmpty(), null);
    }

    private static Check warmupSettled(List<StepData> steps, List<Problem> problems, Evidence e) {
        boolean decided = steps.stream().anyMatch(s -> settledFigures(s) != null);
        return of("warmupSettled", texts(problems, "warmup", "finding.warmupUnsettled"), e, decided, null);
    }

    static Check warmupSettled(List<StepData> steps) {
        return warmupSettled(steps, stepProblems(steps, Evidence.NONE), null);
    }

    static Check rounds(List<WorkloadSummary> workloads) {
        List<Text> f = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            for (SummaryRow r : w.rows()) {
                if (r.rounds() < MIN_ROUNDS) {
                    f.add(Text.of("finding.rounds", r.target() + " · " + r.workload() + " · " + r.threads() + " thr",
                            r.rounds()));
                }
            }
        }
        return of("rounds", f, null, !workloads.isEmpty(), null);
    }

    static Check beyondPeak(List<WorkloadSummary> workloads) {
        List<Text> f = new ArrayList<>();
        boolean decidable = false;
        for (WorkloadSummary w : workloads) {
            for (Sweep s : w.sweep()) {
                int last = -1;
                int levels = 0;
                for (int i = 0; i < s.qps().size(); i++) {
                    if (s.qps().get(i) != null) {
                        last = i;
                        levels++;
                    }
                }
                if (levels < 2) {
                    continue; // one concurrency (a soak): there is no sweep to judge
                }
                decidable = true;
                if (s.peakIndex() == last) {
                    f.add(Text.of("finding.peakAtMax", s.target() + " · " + w.workload(),
                            w.threadLevels().get(s.peakIndex())));
                }
            }
        }
        return of("beyondPeak", f, null, decidable, null);
    }

    private static Check clientCpu(List<StepData> steps, List<Problem> problems, Evidence e) {
        List<StepData> judged = steps.stream().filter(s -> !embedded(s)).toList();
        if (judged.isEmpty() && !steps.isEmpty()) {
            return new Check("clientCpu", "na", List.of(Text.of("finding.clientCpuEmbedded")));
        }
        steps = judged;
        StepData max = steps.stream().filter(s -> s.clientCpuPct() != null)
                .max(java.util.Comparator.comparingDouble(StepData::clientCpuPct)).orElse(null);
        boolean decidable = max != null || steps.stream().anyMatch(StepData::clientBound);
        Text pass = max == null ? null : Text.of(PROCESS.equals(max.cpuSource()) ? "finding.clientCpuMaxProcess"
                : "finding.clientCpuMax", fmt(max.clientCpuPct()), step(max.info()));
        return of("clientCpu", texts(problems, "clientBound", null), e, decidable, pass);
    }

    static Check clientCpu(List<StepData> steps) {
        return clientCpu(steps, stepProblems(steps, Evidence.NONE), null);
    }

    private static Check rtt(List<WorkloadSummary> workloads, List<StepData> steps, Map<String, Set<Text>> cross,
                             Evidence e) {
        boolean decidable = false;
        List<Text> pass = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            Set<String> targets = new TreeSet<>(w.rows().stream().map(SummaryRow::target).toList());
            RttJudgement j = rttJudgement(w, targets, steps);
            if (j != null) {
                decidable = true;
                if (!j.matters()) {
                    pass.add(j.text());
                }
            }
        }
        Check c = of("rtt", List.copyOf(cross.getOrDefault("rtt", Set.of())), e, decidable, null);
        return c.status().equals("pass") ? new Check("rtt", "pass", pass) : c;
    }

    private static Check crossTarget(String id, Map<String, List<StepData>> byWorkload, Map<String, Set<Text>> cross,
                                     Evidence e) {
        List<Text> flags = List.copyOf(cross.getOrDefault(id, Set.of()));
        boolean multi = byWorkload.values().stream()
                .anyMatch(ss -> ss.stream().map(s -> s.info().target()).distinct().count() > 1);
        if (!flags.isEmpty()) {
            return of(id, flags, e, true, null);
        }
        if (!multi) {
            return new Check(id, "na", List.of());
        }
        // pass: say what every compared target has in common, so the reader sees what "equal" means
        List<Text> same = new ArrayList<>();
        byWorkload.forEach((w, ss) -> {
            if (ss.stream().map(s -> s.info().target()).distinct().count() > 1) {
                FairnessProfile p = profile(ss.get(0));
                same.add(id.equals("durability")
                        ? Text.of("finding.durabilitySame", w, p.durability().value(), p.replication().value(),
                                p.tornPages().value())
                        : Text.of("finding.isolationSame", w, p.isolation().value()));
            }
        });
        return new Check(id, "pass", same);
    }

    static Check dataSize(List<StepData> steps) {
        return dataSize(steps, null);
    }

    /**
     * Where the plan expected the data set to be larger than the buffer pool: passes when every such step's data
     * (tables plus indexes at step start) was larger, flags those where it was not; n/a when no step asked or no
     * size is known. One line per target and workload, from its step with the least data relative to the pool.
     */
    private static Check dataSize(List<StepData> steps, Evidence e) {
        Map<String, long[]> worst = worstDataSize(steps);
        if (worst.isEmpty()) {
            return new Check("dataSize", "na", List.of());
        }
        List<Text> flags = new ArrayList<>();
        List<Text> ok = new ArrayList<>();
        worst.forEach((key, w) -> (w[0] > w[1] ? ok : flags).add(dataSizeText(key, w)));
        return flags.isEmpty() ? new Check("dataSize", "pass", ok) : of("dataSize", flags, e, true, null);
    }

    /** Name of the target variable that marks a database running on the load generator's threads. */
    public static final String EMBEDDED = "tailstream.embedded";

    /**
     * True if the step's database ran inside the load generator's process (H2 in memory or on a local file), as the
     * producer marks it, or, in archives from before that mark, as an H2 URL without a TCP or SSL server says.
     */
    static boolean embedded(StepData s) {
        if ("true".equals(s.variables().get(EMBEDDED))) {
            return true;
        }
        String url = s.info().url();
        return url != null && url.startsWith("jdbc:h2:") && !url.matches("(?i)jdbc:h2:(tcp|ssl):.*");
    }

    // ---- the problems: shared by the checklist and the verdicts ----

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
            if (embedded(s)) {
                // the database runs on the load generator's threads: its CPU is the database's, nothing to judge
            } else if (clientBound(s.clientCpuPct(), false, limit)) {
                out.add(problem("clientBound", s, Text.of(PROCESS.equals(s.cpuSource()) ? "finding.clientCpuProcess"
                        : "finding.clientCpu", label, fmt(s.clientCpuPct()), fmt(limit))));
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
    private static double[] settledFigures(StepData s) {
        if (s.warmupTailQps() == null || s.measuredQps() == null || s.measuredQps() == 0) {
            return null;
        }
        return new double[] {s.warmupTailQps(), s.measuredQps(),
                (s.warmupTailQps() - s.measuredQps()) / s.measuredQps()};
    }

    /** Per target and workload that the plan expected to be larger than the pool: {data, pool} of its worst step. */
    private static Map<String, long[]> worstDataSize(List<StepData> steps) {
        Map<String, long[]> worst = new TreeMap<>(); // target · workload -> data, pool
        for (StepData s : steps) {
            if (!"true".equals(option(s.info().options(), EXPECT_DATA_LARGER))) {
                continue;
            }
            Long data = FairnessProfile.bytes(s.variables().get(DATA_BYTES));
            Long pool = FairnessProfile.poolBytes(FairnessProfile.familyOf(s.product(), s.variables()), s.variables());
            if (data == null || pool == null || pool <= 0) {
                continue;
            }
            String key = s.info().target() + " · " + s.info().workload();
            long[] w = worst.get(key);
            if (w == null || (double) data / pool < (double) w[0] / w[1]) {
                worst.put(key, new long[] {data, pool});
            }
        }
        return worst;
    }

    private static Text dataSizeText(String key, long[] w) {
        return Text.of(w[0] > w[1] ? "finding.dataSizeOk" : "finding.dataSize", key, FairnessProfile.mib(w[0]),
                FairnessProfile.mib(w[1]));
    }

    private static List<Problem> dataSizeProblems(List<StepData> steps) {
        List<Problem> out = new ArrayList<>();
        Map<String, StepData> firstOf = new LinkedHashMap<>();
        steps.forEach(s -> firstOf.putIfAbsent(s.info().target() + " · " + s.info().workload(), s));
        worstDataSize(steps).forEach((key, w) -> {
            if (w[0] <= w[1]) {
                StepData s = firstOf.get(key);
                out.add(new Problem("dataSize", s.info().workload(), Set.of(s.info().target()), null,
                        dataSizeText(key, w)));
            }
        });
        return out;
    }

    /** The profile of a step's target as that step saw it. */
    static FairnessProfile profile(StepData s) {
        return FairnessProfile.of(s.info().target(), s.product(), s.variables());
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
                FairnessProfile.Aspect x = a.get().apply(profile(s));
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

    /** The RTT comparison of a workload's targets: the figures, and whether the difference may matter. */
    record RttJudgement(boolean matters, Text text) {}

    /**
     * Probe RTTs of the targets compared: each target's median over its steps of the probe's median (P99 likewise).
     * The difference may matter when the slower target's median exceeds the faster's by more than
     * {@link #MAX_RTT_RATIO} times and the difference, paid once per statement, adds more than
     * {@link #MAX_RTT_LATENCY_SHARE} of the faster target's mean transaction latency (its lowest over its rows of the
     * workload). Null when fewer than two of the targets have a probe.
     */
    static RttJudgement rttJudgement(WorkloadSummary w, Set<String> targets, List<StepData> steps) {
        Map<String, double[]> rtt = rttByTarget(steps);
        List<String> with = targets.stream().filter(rtt::containsKey).sorted().toList();
        if (with.size() < 2) {
            return null;
        }
        // fastest first, then by name: with equal medians the two named are still two different targets
        List<String> byRtt = with.stream().sorted(java.util.Comparator.comparingDouble((String t) -> rtt.get(t)[0])
                .thenComparing(t -> t)).toList();
        String fast = byRtt.get(0);
        String slow = byRtt.get(byRtt.size() - 1);
        double diffUs = rtt.get(slow)[0] - rtt.get(fast)[0];
        double ratio = rtt.get(fast)[0] > 0 ? rtt.get(slow)[0] / rtt.get(fast)[0] : Double.POSITIVE_INFINITY;
        // the faster target's lowest mean latency per statement over its rows: where a round trip weighs most
        double perStatementUs = Double.POSITIVE_INFINITY;
        double txnUs = 0;
        double statements = 0;
        for (SummaryRow r : w.rows()) {
            if (!r.target().equals(fast) || r.transactions() == 0 || r.qps() <= 0) {
                continue;
            }
            double perTxn = r.qps() * r.measuredSeconds() / r.transactions();
            double us = r.avgMs() * 1000 / perTxn;
            if (us < perStatementUs) {
                perStatementUs = us;
                txnUs = r.avgMs() * 1000;
                statements = perTxn;
            }
        }
        boolean known = perStatementUs < Double.POSITIVE_INFINITY;
        double sharePct = known ? diffUs * statements / txnUs * 100 : Double.NaN;
        boolean matters = ratio > MAX_RTT_RATIO && known && diffUs * statements > MAX_RTT_LATENCY_SHARE * txnUs;
        Text t = Text.of(matters ? "finding.rtt" : "finding.rttOk", w.workload(), fast, fmt3(rtt.get(fast)[0] / 1000),
                fmt3(rtt.get(fast)[1] / 1000), slow, fmt3(rtt.get(slow)[0] / 1000), fmt3(rtt.get(slow)[1] / 1000),
                String.format(Locale.ROOT, "%.2f", ratio), known ? fmt(sharePct) : "-",
                known ? fmt3(txnUs / 1000) : "-", known ? fmt(statements) : "-");
        return new RttJudgement(matters, t);
    }

    static java.util.Optional<Problem> rttProblem(WorkloadSummary w, Set<String> targets, List<StepData> steps) {
        RttJudgement j = rttJudgement(w, targets, steps);
        return j == null || !j.matters() ? java.util.Optional.empty()
                : java.util.Optional.of(new Problem("rtt", w.workload(), targets, null, j.text()));
    }

    /** Per target: {median of the probes' medians, median of the probes' P99s, probes} in µs. */
    static Map<String, double[]> rttByTarget(List<StepData> steps) {
        Map<String, List<Probe>> by = new TreeMap<>();
        steps.stream().filter(s -> s.probe() != null)
                .forEach(s -> by.computeIfAbsent(s.info().target(), k -> new ArrayList<>()).add(s.probe()));
        Map<String, double[]> out = new TreeMap<>();
        by.forEach((t, ps) -> out.put(t, new double[] {median(ps.stream().map(Probe::p50Us).toList()),
                median(ps.stream().map(Probe::p99Us).toList()), ps.size()}));
        return out;
    }

    /** The median (mean of the middle two for an even count). */
    static double median(List<Double> values) {
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static String option(String optionsJson, String key) {
        if (optionsJson == null || optionsJson.isBlank()) {
            return null;
        }
        try {
            JsonNode n = Json.MAPPER.readTree(optionsJson).get(key);
            return n == null ? null : n.asText();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("steps dataset: options is not a JSON object: " + e.getOriginalMessage(),
                    e);
        }
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String fmt3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
