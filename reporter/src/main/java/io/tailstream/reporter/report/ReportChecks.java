package io.tailstream.reporter.report;

import io.tailstream.reporter.report.ReportModel.Check;
import io.tailstream.reporter.report.ReportModel.StepInfo;
import io.tailstream.reporter.report.ReportModel.SummaryRow;
import io.tailstream.reporter.report.ReportModel.Sweep;
import io.tailstream.reporter.report.ReportModel.TargetEnv;
import io.tailstream.reporter.report.ReportModel.Text;
import io.tailstream.reporter.report.ReportModel.VariableRow;
import io.tailstream.reporter.report.ReportModel.WorkloadSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The methodology checklist, decided from the archived data alone (methodology.md, "Pitfalls"): each check is
 * {@code pass}, {@code flag} (with the offending steps or rows) or {@code na} (the archive lacks the data to
 * decide, e.g. no client-health events). Stateless and thread safe.
 */
public final class ReportChecks {

    /** Fewer rounds than this cannot show run-to-run variance. */
    public static final int MIN_ROUNDS = 3;
    /** The load client's CPU above this may make its own bottleneck look like the database's. */
    public static final double MAX_CLIENT_CPU_PCT = 50;
    /** Failed transactions above this share (in %) of a row make its figures suspect. */
    public static final double MAX_ERROR_PCT = 1;
    /** Round trips further apart than this factor (slowest / fastest target) make targets incomparable. */
    public static final double MAX_RTT_RATIO = 1.5;
    /** Warm-up is long enough when its last quarter's QPS is within this share of the measured QPS. */
    public static final double WARMUP_SETTLED_TOLERANCE = 0.10;

    private ReportChecks() {}

    /**
     * What the checks need of one step.
     *
     * @param warmupSamples   samples flagged as warm-up
     * @param warmupTailQps   mean QPS of the last quarter of the warm-up windows, or null without windows
     * @param measuredQps     mean QPS of the measured windows, or null
     * @param clientCpuPct    mean client CPU over the step's client-health events (machine CPU, or the process's
     *                        when the machine's is not reported), or null without events
     * @param clientBound     a client-health event of the step said the client was the bottleneck
     * @param variables       the target's variables captured at the step's start
     */
    public record StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                           Double clientCpuPct, boolean clientBound, Map<String, String> variables) {
        public StepData {
            variables = variables == null ? Map.of() : Map.copyOf(variables);
        }

        public StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                        Double clientCpuPct, boolean clientBound) {
            this(info, warmupSamples, warmupTailQps, measuredQps, clientCpuPct, clientBound, Map.of());
        }
    }

    /** Step option (reserved key) by which a plan says the workload's data should exceed the buffer pool. */
    public static final String EXPECT_DATA_LARGER = "expect.dataLargerThanBufferPool";
    /** Target variable the producer adds with the workload's data plus index bytes. */
    public static final String DATA_BYTES = "tailstream.data_bytes";
    /** The buffer pool's size in bytes (MySQL, MariaDB). */
    public static final String BUFFER_POOL = "innodb_buffer_pool_size";

    public static List<Check> checks(List<StepData> steps, List<WorkloadSummary> workloads, List<TargetEnv> targets,
                                     List<VariableRow> variables) {
        List<Check> out = new ArrayList<>();
        out.add(warmup(steps));
        out.add(warmupSettled(steps));
        out.add(rounds(workloads));
        out.add(beyondPeak(workloads));
        out.add(clientCpu(steps));
        out.add(rtt(targets));
        out.add(durability(variables, targets.size()));
        out.add(errors(workloads));
        out.add(completed(steps));
        out.add(dataSize(steps));
        return out;
    }

    static String step(StepInfo s) {
        return s.target() + " · " + s.workload() + " · " + s.threads() + " thr · r" + s.round() + " (" + s.runId()
                + "#" + s.stepId() + ")";
    }

    private static Check of(String id, List<Text> findings, boolean decidable, Text passNote) {
        if (!decidable) {
            return new Check(id, "na", findings);
        }
        return findings.isEmpty() ? new Check(id, "pass", passNote == null ? List.of() : List.of(passNote))
                : new Check(id, "flag", findings);
    }

    static Check warmup(List<StepData> steps) {
        List<Text> f = new ArrayList<>();
        for (StepData s : steps) {
            if (s.info().warmupMs() <= 0 || s.warmupSamples() == 0) {
                f.add(Text.of("finding.noWarmup", step(s.info()), s.info().warmupMs() / 1000.0, s.warmupSamples()));
            }
        }
        return of("warmup", f, !steps.isEmpty(), null);
    }

    static Check warmupSettled(List<StepData> steps) {
        List<Text> f = new ArrayList<>();
        int decided = 0;
        for (StepData s : steps) {
            if (s.warmupTailQps() == null || s.measuredQps() == null || s.measuredQps() == 0) {
                continue;
            }
            decided++;
            double diff = (s.warmupTailQps() - s.measuredQps()) / s.measuredQps();
            if (Math.abs(diff) > WARMUP_SETTLED_TOLERANCE) {
                f.add(Text.of("finding.warmupUnsettled", step(s.info()), fmt(s.warmupTailQps()),
                        fmt(s.measuredQps()), fmt(diff * 100)));
            }
        }
        return of("warmupSettled", f, decided > 0, null);
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
        return of("rounds", f, !workloads.isEmpty(), null);
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
        return of("beyondPeak", f, decidable, null);
    }

    static Check clientCpu(List<StepData> steps) {
        List<Text> f = new ArrayList<>();
        double max = 0;
        boolean any = false;
        for (StepData s : steps) {
            if (s.clientCpuPct() == null) {
                continue;
            }
            any = true;
            max = Math.max(max, s.clientCpuPct());
            if (s.clientCpuPct() >= MAX_CLIENT_CPU_PCT || s.clientBound()) {
                f.add(Text.of("finding.clientCpu", step(s.info()), fmt(s.clientCpuPct()), s.clientBound()));
            }
        }
        return of("clientCpu", f, any, Text.of("finding.clientCpuMax", fmt(max)));
    }

    static Check rtt(List<TargetEnv> targets) {
        List<TargetEnv> with = targets.stream().filter(t -> t.rttMs() != null).toList();
        if (with.size() < 2) {
            return new Check("rtt", "na", List.of());
        }
        TargetEnv lo = with.stream().min(java.util.Comparator.comparingDouble(TargetEnv::rttMs)).orElseThrow();
        TargetEnv hi = with.stream().max(java.util.Comparator.comparingDouble(TargetEnv::rttMs)).orElseThrow();
        boolean flagged = hi.rttMs() > lo.rttMs() * MAX_RTT_RATIO;
        Text t = Text.of("finding.rtt", lo.name(), fmt3(lo.rttMs()), hi.name(), fmt3(hi.rttMs()));
        return new Check("rtt", flagged ? "flag" : "pass", List.of(t));
    }

    static Check durability(List<VariableRow> variables, int targets) {
        List<Text> f = new ArrayList<>();
        boolean any = false;
        for (VariableRow v : variables) {
            if (!v.durability()) {
                continue;
            }
            any = true;
            if (v.differs() || v.values().size() < targets) {
                List<String> vals = new ArrayList<>();
                v.values().entrySet().stream().sorted(java.util.Map.Entry.comparingByKey())
                        .forEach(e -> vals.add(e.getKey() + "=" + e.getValue()));
                f.add(Text.of("finding.durability", v.name(), String.join(", ", vals)));
            }
        }
        return of("durability", f, any && targets > 1, null);
    }

    static Check errors(List<WorkloadSummary> workloads) {
        List<Text> f = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            for (SummaryRow r : w.rows()) {
                if (r.errorPct() > MAX_ERROR_PCT) {
                    f.add(Text.of("finding.errors", r.target() + " · " + r.workload() + " · " + r.threads() + " thr",
                            fmt(r.errorPct()), r.errors()));
                }
            }
        }
        return of("errors", f, !workloads.isEmpty(), null);
    }

    static Check completed(List<StepData> steps) {
        List<Text> f = new ArrayList<>();
        for (StepData s : steps) {
            if (!"completed".equals(s.info().outcome())) {
                f.add(Text.of("finding.outcome", step(s.info()), String.valueOf(s.info().outcome())));
            }
        }
        return of("completed", f, !steps.isEmpty(), null);
    }

    /**
     * Where the plan expected the data set to be larger than the buffer pool: passes when every such step's data
     * (tables plus indexes at step start) was larger, flags those where it was not; n/a when no step asked or no
     * size is known. One line per target and workload, from its step with the least data relative to the pool.
     */
    static Check dataSize(List<StepData> steps) {
        Map<String, long[]> worst = new java.util.TreeMap<>(); // target · workload -> data, pool
        for (StepData s : steps) {
            if (!"true".equals(option(s.info().options(), EXPECT_DATA_LARGER))) {
                continue;
            }
            Long data = bytes(s.variables().get(DATA_BYTES));
            Long pool = bytes(s.variables().get(BUFFER_POOL));
            if (data == null || pool == null || pool <= 0) {
                continue;
            }
            String key = s.info().target() + " · " + s.info().workload();
            long[] w = worst.get(key);
            if (w == null || (double) data / pool < (double) w[0] / w[1]) {
                worst.put(key, new long[] {data, pool});
            }
        }
        if (worst.isEmpty()) {
            return new Check("dataSize", "na", List.of());
        }
        List<Text> flags = new ArrayList<>();
        List<Text> ok = new ArrayList<>();
        worst.forEach((key, w) -> (w[0] > w[1] ? ok : flags).add(Text.of(w[0] > w[1] ? "finding.dataSizeOk"
                : "finding.dataSize", key, size(w[0]), size(w[1]))));
        return flags.isEmpty() ? new Check("dataSize", "pass", ok) : new Check("dataSize", "flag", flags);
    }

    private static String option(String optionsJson, String key) {
        if (optionsJson == null || optionsJson.isBlank()) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode n = io.tailstream.schemas.event.Json.MAPPER.readTree(optionsJson)
                    .get(key);
            return n == null ? null : n.asText();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("steps dataset: options is not a JSON object: " + e.getOriginalMessage(),
                    e);
        }
    }

    /** A byte count as captured, or null when absent or not a number (e.g. PolarDB's "auto"). */
    private static Long bytes(String v) {
        if (v == null || !v.matches("\\d{1,19}")) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            return null; // beyond a long: not a size this check can compare
        }
    }

    /** "1.5 MiB (1572864 B)". */
    private static String size(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB (%d B)", bytes / 1048576.0, bytes);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String fmt3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
