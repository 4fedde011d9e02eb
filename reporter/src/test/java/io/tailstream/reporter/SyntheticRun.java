package io.tailstream.reporter;

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
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * A deterministic synthetic run as producers and the aggregator would put it on the topics: sample blocks
 * (with heartbeats and end-of-step markers, one block sequence per producer), the window stats of every
 * (step, second) computed from exactly those samples, and the control events. Every expected row is kept so
 * tests compare the archive against it exactly.
 */
public final class SyntheticRun {

    /** A record as it goes onto a topic. */
    public record Rec(String topic, int partition, byte[] key, byte[] value) {}

    /** One sample as the archive's samples dataset must hold it. */
    public record Row(int stepId, String producerId, long blockSeq, String op, long startUs, long latencyUs,
                      long intendedStartUs, String status, int queries, boolean warmup) {
        public long endUs() {
            return startUs + latencyUs;
        }
    }

    /** What a step does. */
    public record StepSpec(String target, String workload, int threads, int round, double queriesPerTxn,
                           long warmupMs, long measureMs) {}

    public final String runId;
    public final List<String> producers;
    public final List<StepSpec> steps;
    public final List<Rec> sampleRecords = new ArrayList<>();
    public final List<Row> rows = new ArrayList<>();
    public final List<WindowStats> windows = new ArrayList<>();
    public final List<ControlEvent> control = new ArrayList<>();
    public final Map<String, Long> blocksSent = new TreeMap<>();
    public final List<TargetInfo> targets = new ArrayList<>();
    public final long stepStartMs0;

    /** Cost items of the file-backed targets (they sum to its monthly cost, 120); in-memory targets have none. */
    public static Map<String, Double> costItems() {
        Map<String, Double> items = new java.util.LinkedHashMap<>();
        items.put("storage", 30.0);
        items.put("compute", 90.0);
        return items;
    }

    /**
     * @param samplesPerSecond per producer and step
     * @param partitions       partitions of the samples topic (markers go to every one)
     */
    public SyntheticRun(String runId, long seed, List<String> producers, List<StepSpec> steps, int samplesPerSecond,
                        int partitions, long startEpochMs) {
        this(runId, seed, producers, steps, samplesPerSecond, partitions, startEpochMs, false);
    }

    /**
     * @param v3Events control events as producers of event version 3 write them: every {@code step_started} with a
     *                 round-trip probe, every {@code step_ended} with the exact phase boundaries, reconnects and CPU
     *                 figures (without: step 1 in version 1, later steps in version 2)
     */
    public SyntheticRun(String runId, long seed, List<String> producers, List<StepSpec> steps, int samplesPerSecond,
                        int partitions, long startEpochMs, boolean v3Events) {
        this.runId = runId;
        this.producers = List.copyOf(producers);
        this.steps = List.copyOf(steps);
        this.stepStartMs0 = startEpochMs;
        Random rnd = new Random(seed);
        List<String> ops = List.of("txn");
        Map<String, Long> seq = new HashMap<>();
        producers.forEach(p -> seq.put(p, 0L));
        Map<String, TargetInfo> targetByName = new TreeMap<>();
        for (StepSpec s : steps) {
            targetByName.computeIfAbsent(s.target(), n -> new TargetInfo(n,
                    "jdbc:h2:mem:" + n + ";user=sa;password=secret", "H2", "2.3.232",
                    Map.of("durability", n.contains("file") ? "sync" : "none", "cache_size", "65536"),
                    n.contains("file") ? 120.0 : 80.0, "USD", 1, "synthetic <b>" + n + "</b>",
                    n.contains("file") ? costItems() : null));
        }
        targets.addAll(targetByName.values());
        for (String p : producers) {
            control.add(new RunStarted(runId, startEpochMs, p, "synthetic-plan", targets,
                    Map.of("host", "test"), RunSettings.fromVersion1(Map.of("block.samples", "64"))));
        }
        long stepStartMs = startEpochMs;
        Map<String, Long> samplesByProducer = new HashMap<>();
        for (int stepIndex = 0; stepIndex < steps.size(); stepIndex++) {
            StepSpec s = steps.get(stepIndex);
            int stepId = stepIndex + 1;
            TargetInfo target = targetByName.get(s.target());
            long durationMs = s.warmupMs() + s.measureMs();
            for (String p : producers) {
                int pi = producers.indexOf(p);
                control.add(new StepStarted(runId, stepStartMs, p, stepId, target, s.workload(),
                        threadShare(s.threads(), producers.size(), pi), s.round(), s.warmupMs(), s.measureMs(), ops, s.queriesPerTxn(), Map.of("tables", "1"),
                        v3Events ? rtt(stepId, pi) : null));
            }
            Map<Long, Histogram> hist = new TreeMap<>();
            Map<Long, long[]> counters = new TreeMap<>(); // errors, queries, warmup
            Map<Long, Map<String, Long>> errorClasses = new TreeMap<>();
            for (int pi = 0; pi < producers.size(); pi++) {
                String p = producers.get(pi);
                boolean openLoop = pi == 1; // the second producer runs open loop (intended starts)
                SampleBlockEncoder enc = new SampleBlockEncoder(64, openLoop);
                long samples = 0;
                long errors = 0;
                long lastEndUs = 0;
                long blocksAtStart = seq.get(p);
                long n = samplesPerSecond * durationMs / 1000;
                long startUs = stepStartMs * 1000 + pi * 37;
                int partition = Math.floorMod((runId + "/" + p).hashCode(), partitions);
                for (long i = 0; i < n; i++) {
                    startUs += 1_000_000L / samplesPerSecond - 50 + rnd.nextInt(100);
                    long latency = 100 + (long) Math.exp(rnd.nextGaussian() * 0.8 + 7); // ~1.1 ms median
                    SampleStatus status = rnd.nextInt(100) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                    int queries = (int) s.queriesPerTxn();
                    boolean warmup = startUs < (stepStartMs + s.warmupMs()) * 1000;
                    long intended = openLoop ? startUs - rnd.nextInt(200) : startUs;
                    enc.add(startUs, latency, intended, 0, status, queries, warmup);
                    rows.add(new Row(stepId, p, seq.get(p), "txn", startUs, latency, intended, status.label(),
                            queries, warmup));
                    samples++;
                    lastEndUs = Math.max(lastEndUs, startUs + latency);
                    if (status.isError()) {
                        errors++;
                    }
                    long windowMs = (startUs + latency) / 1_000_000 * 1000;
                    LatencyHistograms.record(hist.computeIfAbsent(windowMs, w -> LatencyHistograms.create()),
                            latency);
                    long[] c = counters.computeIfAbsent(windowMs, w -> new long[3]);
                    c[0] += status.isError() ? 1 : 0;
                    c[1] += queries;
                    c[2] += warmup ? 1 : 0;
                    if (status.isError()) {
                        errorClasses.computeIfAbsent(windowMs, w -> new TreeMap<>()).merge(status.label(), 1L,
                                Long::sum);
                    }
                    if (enc.isFull() || i == n - 1) {
                        byte[] block = enc.seal(runId, p, seq.get(p), stepId, startUs + latency, ops, 0);
                        sampleRecords.add(new Rec(Topics.SAMPLES, partition, key(p), block));
                        seq.merge(p, 1L, Long::sum);
                        enc.reset();
                        if (seq.get(p) % 5 == 0) {
                            sampleRecords.add(new Rec(Topics.SAMPLES, partition, key(p), SampleBlockEncoder.marker(
                                    runId, p, seq.get(p), stepId, SampleBlock.FLAG_HEARTBEAT, startUs, ops)));
                            seq.merge(p, 1L, Long::sum);
                        }
                    }
                }
                for (int part = 0; part < partitions; part++) {
                    sampleRecords.add(new Rec(Topics.SAMPLES, part, key(p), SampleBlockEncoder.marker(runId, p,
                            seq.get(p), stepId, SampleBlock.FLAG_END_OF_STEP, startUs + 1, ops)));
                    seq.merge(p, 1L, Long::sum);
                }
                samplesByProducer.merge(p, samples, Long::sum);
                // step 1 as producers before event version 2 write it; from step 2 with the spool statistics
                int producerIndex = producers.indexOf(p);
                // by time, a producer's measurement ends at its nominal end or when its last transaction did
                long measureStartUs = (stepStartMs + s.warmupMs()) * 1000 + pi * 37;
                long measureEndUs = Math.max(measureStartUs + s.measureMs() * 1000, lastEndUs);
                control.add(v3Events
                        ? new StepEnded(runId, stepStartMs + durationMs, p, stepId, samples,
                                seq.get(p) - blocksAtStart, errors, "completed", false, 0L, 0L, 0L,
                                stepStartMs * 1000 + pi * 37, measureStartUs, measureEndUs, s.threads(),
                                (long) pi + stepId, 20.0 + 10 * pi + stepId, 60.0 + pi)
                        : stepId == 1
                        ? new StepEnded(runId, stepStartMs + durationMs, p, stepId, samples,
                                seq.get(p) - blocksAtStart, errors, "completed")
                        : new StepEnded(runId, stepStartMs + durationMs, p, stepId, samples,
                                seq.get(p) - blocksAtStart, errors, "completed", producerIndex == 1, 5L + 2 * producerIndex,
                                1L + producerIndex, 1000L + 2000 * producerIndex));
            }
            for (Map.Entry<Long, Histogram> e : hist.entrySet()) {
                long[] c = counters.get(e.getKey());
                windows.add(WindowStats.of(runId, stepId, WindowStats.ALL_OPS, e.getKey(), e.getKey() + 1000,
                        e.getValue(), c[0], errorClasses.getOrDefault(e.getKey(), Map.of()), c[1], c[2], 0));
            }
            stepStartMs += durationMs + 1000;
        }
        for (String p : producers) {
            blocksSent.put(p, seq.get(p));
            // the first producer writes event version 2, the others version 1
            control.add(producers.indexOf(p) == 0
                    ? new RunEnded(runId, stepStartMs, p, seq.get(p), samplesByProducer.getOrDefault(p, 0L),
                            "completed", false, 5L, 1L, 1000L)
                    : new RunEnded(runId, stepStartMs, p, seq.get(p), samplesByProducer.getOrDefault(p, 0L),
                            "completed"));
        }
    }

    /** The round-trip probe a producer measured before a step (distinct per step and producer). */
    public static RttProbe rtt(int stepId, int producerIndex) {
        return new RttProbe("prepared SELECT 1, idle connection, 200 timed of 220", 200, 50.0 + stepId,
                80.0 + stepId + producerIndex, 140.0 + stepId, 300.5 + stepId);
    }

    /** The exact measured span of a step from its {@code step_ended} events (v3): earliest start to latest end. */
    public long measuredSpanUs(int stepId) {
        List<StepEnded> ends = control.stream().filter(e -> e instanceof StepEnded se && se.stepId() == stepId)
                .map(e -> (StepEnded) e).toList();
        return ends.stream().mapToLong(StepEnded::measureEndEpochMicros).max().orElseThrow()
                - ends.stream().mapToLong(StepEnded::measureStartEpochMicros).min().orElseThrow();
    }

    private byte[] key(String producer) {
        return (runId + "/" + producer).getBytes(StandardCharsets.UTF_8);
    }

    /** Window stats as records of the windows topic, keyed by scope. */
    public List<Rec> windowRecords(int partitions) {
        return windows.stream().map(w -> new Rec(Topics.WINDOWS, Math.floorMod(w.scopeKey().hashCode(), partitions),
                w.scopeKey().getBytes(StandardCharsets.UTF_8), Json.write(w))).toList();
    }

    /** Control events as records of the control topic (one partition). */
    public List<Rec> controlRecords() {
        return control.stream().map(e -> new Rec(Topics.CONTROL, 0, runId.getBytes(StandardCharsets.UTF_8),
                Json.write(e))).toList();
    }

    /** Everything, samples first, then windows, then control. */
    public List<Rec> allRecords(int samplePartitions, int windowPartitions) {
        List<Rec> all = new ArrayList<>(sampleRecords);
        all.addAll(windowRecords(windowPartitions));
        all.addAll(controlRecords());
        return all;
    }

    public long totalBlocks() {
        return blocksSent.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The threads producer {@code index} of {@code producers} announces when they share a step of {@code threads}
     * threads: the step's threads are all of its producers' together (the archive's {@code steps.threads} is their
     * sum), so the shares add up to the step's.
     */
    public static int threadShare(int threads, int producers, int index) {
        return threads / producers + (index < threads % producers ? 1 : 0);
    }
}
