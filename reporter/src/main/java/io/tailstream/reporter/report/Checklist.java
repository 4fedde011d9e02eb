package io.tailstream.reporter.report;

import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.RttCheck.Judgement;
import io.tailstream.reporter.report.ValidityChecks.Problem;
import io.tailstream.reporter.report.WorkloadSummary.Sweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The methodology checklist: one item per practice a fair comparison needs (warm-up present and settled, enough
 * rounds, a sweep beyond the peak, the client not the bottleneck, RTT, durability and isolation alike, errors,
 * steps completed, data larger than the buffer pool where expected), decided from the archived data alone. An item
 * is {@code pass}, {@code flag} (with the offending steps, rows or targets) or {@code na} (the archive lacks the data
 * to decide, e.g. no client CPU figures). Its findings are the {@link ValidityChecks} problems the verdicts cite, so
 * a verdict's reasons are always among them. Stateless and thread safe.
 */
final class Checklist {

    /** Fewer rounds than this cannot show run-to-run variance. */
    public static final int MIN_ROUNDS = 3;

    private Checklist() {}

    /** The checklist of a report: every item, in the order shown. */
    public static List<Check> checks(Evidence e, List<WorkloadSummary> workloads) {
        List<StepData> steps = e.steps();
        List<Problem> stepProblems = ValidityChecks.stepProblems(steps, e);
        Map<String, List<StepData>> byWorkload = new TreeMap<>();
        steps.forEach(s -> byWorkload.computeIfAbsent(s.info().workload(), k -> new ArrayList<>()).add(s));
        // the cross-target findings are those of the comparisons the verdicts make, so that the two never differ
        Map<String, Set<Text>> cross = new TreeMap<>();
        for (WorkloadSummary w : workloads) {
            for (Verdict v : Verdicts.of(w, Map.of(), e)) {
                Stream.concat(v.reasons().stream(), v.waived().stream())
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
        List<Problem> problems = ValidityChecks.stepProblems(steps, Evidence.NONE);
        return of("warmup", texts(problems, "warmup", "finding.noWarmup"), null, !steps.isEmpty(), null);
    }

    private static Check warmupSettled(List<StepData> steps, List<Problem> problems, Evidence e) {
        boolean decided = steps.stream().anyMatch(s -> ValidityChecks.settledFigures(s) != null);
        return of("warmupSettled", texts(problems, "warmup", "finding.warmupUnsettled"), e, decided, null);
    }

    static Check warmupSettled(List<StepData> steps) {
        return warmupSettled(steps, ValidityChecks.stepProblems(steps, Evidence.NONE), null);
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
        List<StepData> judged = steps.stream().filter(s -> !s.embedded()).toList();
        if (judged.isEmpty() && !steps.isEmpty()) {
            return new Check("clientCpu", "na", List.of(Text.of("finding.clientCpuEmbedded")));
        }
        steps = judged;
        StepData max = steps.stream().filter(s -> s.clientCpuPct() != null)
                .max(Comparator.comparingDouble(StepData::clientCpuPct)).orElse(null);
        boolean decidable = max != null || steps.stream().anyMatch(StepData::clientBound);
        Text pass = max == null ? null : Text.of(StepData.PROCESS.equals(max.cpuSource())
                ? "finding.clientCpuMaxProcess" : "finding.clientCpuMax", ValidityChecks.fmt(max.clientCpuPct()),
                ValidityChecks.step(max.info()));
        return of("clientCpu", texts(problems, "clientBound", null), e, decidable, pass);
    }

    static Check clientCpu(List<StepData> steps) {
        return clientCpu(steps, ValidityChecks.stepProblems(steps, Evidence.NONE), null);
    }

    private static Check rtt(List<WorkloadSummary> workloads, List<StepData> steps, Map<String, Set<Text>> cross,
                             Evidence e) {
        boolean decidable = false;
        List<Text> pass = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            Set<String> targets = new TreeSet<>(w.rows().stream().map(SummaryRow::target).toList());
            Judgement j = RttCheck.judgement(w, targets, steps);
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
                FairnessProfile p = ss.get(0).profile();
                same.add(id.equals("durability")
                        ? Text.of("finding.durabilitySame", w, p.durability().value(), p.replication().value(),
                                p.tornPages().value())
                        : Text.of("finding.isolationSame", w, p.isolation().value()));
            }
        });
        return new Check(id, "pass", same);
    }

    /**
     * Where the plan expected the data set to be larger than the buffer pool: passes when every such step's data
     * (tables plus indexes at step start) was larger, flags those where it was not; n/a when no step asked or no
     * size is known. One line per target and workload, from its step with the least data relative to the pool.
     */
    private static Check dataSize(List<StepData> steps, Evidence e) {
        Map<String, long[]> worst = DataSizeCheck.worst(steps);
        if (worst.isEmpty()) {
            return new Check("dataSize", "na", List.of());
        }
        List<Text> flags = new ArrayList<>();
        List<Text> ok = new ArrayList<>();
        worst.forEach((key, w) -> (w[0] > w[1] ? ok : flags).add(DataSizeCheck.text(key, w)));
        return flags.isEmpty() ? new Check("dataSize", "pass", ok) : of("dataSize", flags, e, true, null);
    }
}
