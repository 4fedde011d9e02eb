package io.tailstream.reporter.report;

import io.tailstream.reporter.SyntheticRun.Rec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RttProbe;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A deterministic benchmark run as one producer and the aggregator put it on the topics (sample blocks with
 * end-of-step markers, per-second window stats for all ops and each op, control events with client health),
 * streamed to a sink so the pipeline's own {@link io.tailstream.reporter.archive.ArchiveWriter} archives it. With
 * {@code keepRows} every sample is kept so tests compute the expected figures exactly.
 */
final class FixtureRun {

    static final String PRODUCER = "producer-1";

    /** A target under test. */
    record Target(String name, String product, String version, Map<String, String> variables, Double monthlyCost,
                  String currency, Integer nodes, double rttMs, Map<String, Double> costItems) {
        Target(String name, String product, String version, Map<String, String> variables, Double monthlyCost,
               String currency, Integer nodes, double rttMs) {
            this(name, product, version, variables, monthlyCost, currency, nodes, rttMs, null);
        }

        TargetInfo info() {
            return new TargetInfo(name, "jdbc:mysql://" + name + ".example:3306/sbtest?password=hunter2", product,
                    version, variables, monthlyCost, currency, nodes, "fixture", costItems);
        }
    }

    /**
     * One step: {@code txnPerSecond} transactions a second with log-normal latencies around {@code medianUs}
     * (multiplied per op by {@code opFactor}, capped at {@link #MAX_LATENCY_US}), a share {@code errorRate} failing
     * with a deadlock; no transaction starts within {@code pausesMs} ([start, end) epoch ms: a hard stall).
     */
    record Step(Target target, String workload, int threads, int round, int queriesPerTxn, long warmupMs,
                long measureMs, double txnPerSecond, long medianUs, double errorRate, List<String> ops,
                double[] opFactor, double clientCpuPct, List<long[]> pausesMs) {}

    /** Latencies are capped so that a window is complete once the generator is this far past its end. */
    static final long MAX_LATENCY_US = 4_000_000;

    /** One archived sample. */
    record Row(int stepId, String op, long startUs, long latencyUs, boolean ok, int queries, boolean warmup) {
        long endUs() {
            return startUs + latencyUs;
        }
    }

    final String runId;
    private final int windowDigits;
    final List<Step> steps;
    final List<Row> rows = new ArrayList<>();
    final List<Long> stepStartMs = new ArrayList<>();
    long samples;
    long windows;
    /** Windows of the all-ops scope. */
    long allOpsWindows;

    FixtureRun(String runId, String plan, long seed, long startMs, List<Step> steps, boolean keepRows,
               Consumer<Rec> sink) {
        this(runId, plan, seed, startMs, steps, keepRows, sink, LatencyHistograms.SIGNIFICANT_DIGITS);
    }

    /**
     * @param windowDigits significant digits of the window histograms: the aggregator's 3, or 2 for long soaks,
     *                     where encoding 130,000 full-resolution histograms would dominate the test's time (window
     *                     percentiles are then within 1% instead of 0.1%; table figures come from raw samples)
     */
    FixtureRun(String runId, String plan, long seed, long startMs, List<Step> steps, boolean keepRows,
               Consumer<Rec> sink, int windowDigits) {
        this.runId = runId;
        this.windowDigits = windowDigits;
        this.steps = List.copyOf(steps);
        Random rnd = new Random(seed);
        Map<String, TargetInfo> targets = new LinkedHashMap<>();
        steps.forEach(s -> targets.putIfAbsent(s.target().name(), s.target().info()));
        control(sink, new RunStarted(runId, startMs, PRODUCER, plan, List.copyOf(targets.values()),
                Map.of("host", "client-8c16g", "cpus", "8"),
                RunSettings.fromVersion1(Map.of("block.samples", "1024"))));
        long seq = 0;
        long at = startMs;
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            int stepId = i + 1;
            stepStartMs.add(at);
            TargetInfo info = targets.get(s.target().name());
            double rttUs = s.target().rttMs() * 1000;
            control(sink, new StepStarted(runId, at, PRODUCER, stepId, info, s.workload(), s.threads(), s.round(),
                    s.warmupMs(), s.measureMs(), s.ops(), s.queriesPerTxn(), Map.of("tables", "10",
                    "table_size", "5000000"), new RttProbe("prepared SELECT 1, idle connection, 200 timed of 220", 200,
                    rttUs * 0.9, rttUs, rttUs * 1.4, rttUs * 2)));
            long endMs = at + s.warmupMs() + s.measureMs();
            SampleBlockEncoder enc = new SampleBlockEncoder(1024, false);
            Map<Long, Histogram[]> hist = new TreeMap<>();
            Map<Long, long[][]> counters = new TreeMap<>(); // per op index (+1 for all): errors, queries, warmup
            long blocksAtStart = seq;
            long stepSamples = 0;
            long errors = 0;
            double gapUs = 1e6 / s.txnPerSecond();
            long lastFlushMs = at;
            double t = at * 1000.0;
            int nOps = s.ops().size();
            while (true) {
                t += gapUs * (0.5 + rnd.nextDouble());
                long startUs = (long) t;
                int op = nOps == 1 ? 0 : rnd.nextInt(nOps);
                long latency = Math.min(MAX_LATENCY_US, Math.max(50, (long) (s.medianUs() * s.opFactor()[op]
                        * Math.exp(rnd.nextGaussian() * 0.45))));
                if (startUs + latency >= endMs * 1000) {
                    break;
                }
                if (paused(s, startUs / 1000)) {
                    continue;
                }
                if (startUs / 1000 - lastFlushMs > 60_000) {
                    // windows ending before any sample still to come can complete: emit and forget them
                    lastFlushMs = startUs / 1000;
                    flushWindows(sink, s, stepId, hist, counters, startUs / 1000 - MAX_LATENCY_US / 1000 - 1000);
                }
                boolean ok = rnd.nextDouble() >= s.errorRate();
                boolean warmup = startUs < (at + s.warmupMs()) * 1000;
                enc.add(startUs, latency, startUs, op, ok ? SampleStatus.OK : SampleStatus.DEADLOCK,
                        s.queriesPerTxn(), warmup);
                if (keepRows) {
                    rows.add(new Row(stepId, s.ops().get(op), startUs, latency, ok, s.queriesPerTxn(), warmup));
                }
                stepSamples++;
                errors += ok ? 0 : 1;
                long w = (startUs + latency) / 1_000_000 * 1000;
                Histogram[] h = hist.computeIfAbsent(w, k -> newHistograms(nOps));
                long[][] c = counters.computeIfAbsent(w, k -> new long[nOps + 1][3]);
                for (int scope : nOps == 1 ? new int[] {0} : new int[] {0, op + 1}) {
                    h[scope].recordValue(latency);
                    c[scope][0] += ok ? 0 : 1;
                    c[scope][1] += s.queriesPerTxn();
                    c[scope][2] += warmup ? 1 : 0;
                }
                if (enc.isFull()) {
                    sink.accept(new Rec(Topics.SAMPLES, 0, key(), enc.seal(runId, PRODUCER, seq++, stepId,
                            startUs + latency, s.ops(), 0)));
                    enc.reset();
                }
            }
            if (!enc.isEmpty()) {
                sink.accept(new Rec(Topics.SAMPLES, 0, key(), enc.seal(runId, PRODUCER, seq++, stepId, endMs * 1000,
                        s.ops(), 0)));
                enc.reset();
            }
            sink.accept(new Rec(Topics.SAMPLES, 0, key(), SampleBlockEncoder.marker(runId, PRODUCER, seq++, stepId,
                    SampleBlock.FLAG_END_OF_STEP, endMs * 1000, s.ops())));
            flushWindows(sink, s, stepId, hist, counters, Long.MAX_VALUE);
            if (s.clientCpuPct() > 0) {
                for (long hAt = at + 1000; hAt <= endMs; hAt += 1000) {
                    double cpu = s.clientCpuPct() + rnd.nextGaussian();
                    control(sink, new ClientHealth(runId, hAt, PRODUCER, stepId, cpu * 0.8, cpu, 0, 0,
                            Map.of(s.target().name(), s.target().rttMs() * (0.95 + rnd.nextDouble() * 0.1)),
                            false));
                }
            }
            control(sink, new StepEnded(runId, endMs, PRODUCER, stepId, stepSamples, seq - blocksAtStart, errors,
                    "completed"));
            samples += stepSamples;
            at = endMs + 1000;
        }
        control(sink, new RunEnded(runId, at, PRODUCER, seq, samples, "completed"));
    }

    private static boolean paused(Step s, long startMs) {
        for (long[] p : s.pausesMs()) {
            if (startMs >= p[0] && startMs < p[1]) {
                return true;
            }
        }
        return false;
    }

    /** Emits (and removes) the windows starting before {@code beforeMs}. */
    private void flushWindows(Consumer<Rec> sink, Step s, int stepId, Map<Long, Histogram[]> hist,
                              Map<Long, long[][]> counters, long beforeMs) {
        var it = hist.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Histogram[]> e = it.next();
            if (e.getKey() >= beforeMs) {
                break;
            }
            long[][] c = counters.remove(e.getKey());
            for (int scope = 0; scope < e.getValue().length; scope++) {
                if (e.getValue()[scope].getTotalCount() == 0) {
                    continue;
                }
                String op = scope == 0 ? WindowStats.ALL_OPS : s.ops().get(scope - 1);
                WindowStats ws = WindowStats.of(runId, stepId, op, e.getKey(), e.getKey() + 1000,
                        e.getValue()[scope], c[scope][0], c[scope][0] > 0 ? Map.of("deadlock", c[scope][0])
                                : Map.of(), c[scope][1], c[scope][2], 0);
                sink.accept(new Rec(Topics.WINDOWS, 0, ws.scopeKey().getBytes(StandardCharsets.UTF_8),
                        Json.write(ws)));
                windows++;
                allOpsWindows += scope == 0 ? 1 : 0;
            }
            it.remove();
        }
    }

    private Histogram[] newHistograms(int ops) {
        Histogram[] h = new Histogram[ops == 1 ? 1 : ops + 1];
        for (int i = 0; i < h.length; i++) {
            h[i] = windowDigits == LatencyHistograms.SIGNIFICANT_DIGITS ? LatencyHistograms.create()
                    : new Histogram(1, MAX_LATENCY_US, windowDigits);
        }
        return h;
    }

    private void control(Consumer<Rec> sink, ControlEvent e) {
        sink.accept(new Rec(Topics.CONTROL, 0, runId.getBytes(StandardCharsets.UTF_8), Json.write(e)));
    }

    private byte[] key() {
        return (runId + "/" + PRODUCER).getBytes(StandardCharsets.UTF_8);
    }
}
