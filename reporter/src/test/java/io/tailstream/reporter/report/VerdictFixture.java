package io.tailstream.reporter.report;

import io.tailstream.reporter.SyntheticRun.Rec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RttProbe;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run as one producer puts it on the topics, with exactly the evidence the verdict checks read: each target's
 * variables, the RTT probe and the load generator's CPU per step, the step's outcome and the plan's settings
 * ({@code accept}). Samples start at exact intervals (no randomness), so every figure a test expects is computed
 * from {@link #rows} alone. No window stats: the report draws and judges warm-up from the raw samples.
 */
final class VerdictFixture {

    static final String PRODUCER = "producer-1";

    /** A target under test. */
    record Target(String name, String product, Map<String, String> variables, Double monthlyCost) {
        TargetInfo info() {
            return new TargetInfo(name, "jdbc:x://" + name + "/sbtest", product, "1", variables, monthlyCost,
                    monthlyCost == null ? null : "USD", 1, null, null);
        }
    }

    /**
     * One step: transactions start every 1/{@code txnPerSecond} s with latency {@code latencyUs} + (i mod 50) µs;
     * every {@code errorEvery}-th fails (0: none). {@code loadGenCpuPct} and {@code processCpuPct} go into the
     * step_ended event (null: not reported, as an older producer), {@code rttP50Us} into step_started's probe (null:
     * no probe).
     */
    record Step(Target target, String workload, int threads, int round, double txnPerSecond, long latencyUs,
                int errorEvery, long warmupMs, long measureMs, Double loadGenCpuPct, Double processCpuPct,
                String outcome, Double rttP50Us) {
        Step(Target target, String workload, int threads, int round, double txnPerSecond, long latencyUs) {
            this(target, workload, threads, round, txnPerSecond, latencyUs, 0, 1000, 2000, 20.0, 35.0, "completed",
                    150.0);
        }

        Step cpu(Double loadGen, Double process) {
            return new Step(target, workload, threads, round, txnPerSecond, latencyUs, errorEvery, warmupMs,
                    measureMs, loadGen, process, outcome, rttP50Us);
        }

        Step outcome(String o) {
            return new Step(target, workload, threads, round, txnPerSecond, latencyUs, errorEvery, warmupMs,
                    measureMs, loadGenCpuPct, processCpuPct, o, rttP50Us);
        }
    }

    /** One archived sample. */
    record Row(int stepId, long startUs, long latencyUs, boolean ok, int queries, boolean warmup) {
        long endUs() {
            return startUs + latencyUs;
        }
    }

    static final int QUERIES = 10;

    final String runId;
    final List<Step> steps;
    final List<Row> rows = new ArrayList<>();
    final List<Rec> records = new ArrayList<>();
    /** Each step's exact measured span, µs, as its step_ended event states it (index = step id - 1). */
    private final List<Long> spansUs = new ArrayList<>();

    VerdictFixture(String runId, Map<String, String> settings, List<Step> steps, long startMs) {
        this.runId = runId;
        this.steps = List.copyOf(steps);
        Map<String, TargetInfo> targets = new LinkedHashMap<>();
        steps.forEach(s -> targets.putIfAbsent(s.target().name(), s.target().info()));
        control(new RunStarted(runId, startMs, PRODUCER, "verdict-plan", List.copyOf(targets.values()),
                Map.of("host", "test"), RunSettings.fromVersion1(settings)));
        long seq = 0;
        long samples = 0;
        long at = startMs;
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            int stepId = i + 1;
            RttProbe probe = s.rttP50Us() == null ? null : new RttProbe("prepared SELECT 1, idle connection, 200"
                    + " timed of 220", 200, s.rttP50Us() * 0.8, s.rttP50Us(), s.rttP50Us() * 1.5, s.rttP50Us() * 3);
            control(new StepStarted(runId, at, PRODUCER, stepId, targets.get(s.target().name()), s.workload(),
                    s.threads(), s.round(), s.warmupMs(), s.measureMs(), List.of("txn"), QUERIES,
                    Map.of("tables", "1"), probe));
            long endMs = at + s.warmupMs() + s.measureMs();
            spansUs.add((endMs - at - s.warmupMs()) * 1000);
            long gapUs = Math.round(1e6 / s.txnPerSecond());
            SampleBlockEncoder enc = new SampleBlockEncoder(1024, false);
            long blocksAtStart = seq;
            long stepSamples = 0;
            long errors = 0;
            for (long n = 0; ; n++) {
                long startUs = at * 1000 + n * gapUs;
                long latency = s.latencyUs() + n % 50;
                if (startUs + latency >= endMs * 1000) {
                    break;
                }
                boolean ok = s.errorEvery() == 0 || (n + 1) % s.errorEvery() != 0;
                boolean warmup = startUs < (at + s.warmupMs()) * 1000;
                enc.add(startUs, latency, startUs, 0, ok ? SampleStatus.OK : SampleStatus.DEADLOCK, QUERIES, warmup);
                rows.add(new Row(stepId, startUs, latency, ok, QUERIES, warmup));
                stepSamples++;
                errors += ok ? 0 : 1;
                if (enc.isFull()) {
                    records.add(sample(enc.seal(runId, PRODUCER, seq++, stepId, startUs + latency, List.of("txn"), 0)));
                    enc.reset();
                }
            }
            if (!enc.isEmpty()) {
                records.add(sample(enc.seal(runId, PRODUCER, seq++, stepId, endMs * 1000, List.of("txn"), 0)));
                enc.reset();
            }
            records.add(sample(SampleBlockEncoder.marker(runId, PRODUCER, seq++, stepId, SampleBlock.FLAG_END_OF_STEP,
                    endMs * 1000, List.of("txn"))));
            control(new StepEnded(runId, endMs, PRODUCER, stepId, stepSamples, seq - blocksAtStart, errors,
                    s.outcome(), s.loadGenCpuPct() != null && s.loadGenCpuPct() > 50, 0L, 0L, 0L, at * 1000,
                    (at + s.warmupMs()) * 1000, endMs * 1000, s.threads(), 0L, s.loadGenCpuPct(),
                    s.processCpuPct()));
            samples += stepSamples;
            at = endMs + 1000;
        }
        control(new RunEnded(runId, at, PRODUCER, seq, samples, "completed"));
    }

    private Rec sample(byte[] block) {
        return new Rec(Topics.SAMPLES, 0, (runId + "/" + PRODUCER).getBytes(StandardCharsets.UTF_8), block);
    }

    private void control(ControlEvent e) {
        records.add(new Rec(Topics.CONTROL, 0, runId.getBytes(StandardCharsets.UTF_8), Json.write(e)));
    }

    // ---- exact figures from the rows, independent of the report ----

    /** Measured QPS of each step of (target, workload, threads): queries / (last end - first start). */
    List<Double> roundQps(String target, String workload, int threads) {
        return stepIds(target, workload, threads).stream().map(id -> queries(measured(id)) / (spanUs(id) / 1e6))
                .toList();
    }

    /** Measured QPS of (target, workload, threads), all rounds: succeeded statements / sum of the exact spans. */
    double qps(String target, String workload, int threads) {
        List<Integer> ids = stepIds(target, workload, threads);
        return ids.stream().mapToLong(id -> queries(measured(id))).sum()
                / (ids.stream().mapToLong(this::spanUs).sum() / 1e6);
    }

    private List<Integer> stepIds(String target, String workload, int threads) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            if (s.target().name().equals(target) && s.workload().equals(workload) && s.threads() == threads) {
                out.add(i + 1);
            }
        }
        return out;
    }

    private List<Row> measured(int stepId) {
        return rows.stream().filter(r -> r.stepId() == stepId && !r.warmup()).toList();
    }

    /** Statements that succeeded, as sysbench counts them: a failed transaction's failing statement excluded. */
    private static long queries(List<Row> m) {
        return m.stream().mapToLong(r -> r.ok() ? r.queries() : Math.max(0, r.queries() - 1)).sum();
    }

    private long spanUs(int stepId) {
        return spansUs.get(stepId - 1);
    }
}
