package io.tailstream.reporter;

import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
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
import org.HdrHistogram.Histogram;

/**
 * A deterministic run built to prove the report's figures: steps that start and end inside a second (partial edge
 * windows; the warm-up ends inside a window too), two producers per step with their own phase boundaries, error
 * classes with latencies unlike the successful ones (dead connections failing in microseconds, lock waits timing
 * out after 50 ms), a heavy tail, a step flooded with failures, and steps that fail midway. Its records are what
 * producers and the aggregator put on the topics (sample blocks, one-second all-ops windows computed from exactly
 * these samples, control events of version 3 or, for the fallback, version 2), and every sample is kept so tests
 * compute the expected figures independently.
 */
public final class ProofRun {

    public static final List<String> PRODUCERS = List.of("p1", "p2");

    /** How a step's transactions fail: each class's share of transactions and the latency of its failures. */
    public record Failure(SampleStatus status, double share, long minLatencyUs, long maxLatencyUs) {}

    /**
     * One step.
     *
     * @param gapMs           pause before the step (after the previous one ended), ms; keeps starts off the second
     * @param txnPerSecond    transaction starts per second per producer
     * @param medianUs        median latency of successful transactions (log-normal)
     * @param slowShare       share of successful transactions that take {@code slowUs} instead (a heavy tail)
     * @param failAfterMs     the step fails this long into its measurement (outcome {@code failed: ...}), or -1
     */
    public record Spec(String target, String workload, int threads, int round, List<String> ops, int queriesPerTxn,
                       long gapMs, long warmupMs, long measureMs, double txnPerSecond, long medianUs,
                       double slowShare, long slowUs, List<Failure> failures, long failAfterMs) {

        public Spec withFailAfter(long ms) {
            return new Spec(target, workload, threads, round, ops, queriesPerTxn, gapMs, warmupMs, measureMs,
                    txnPerSecond, medianUs, slowShare, slowUs, failures, ms);
        }

        public Spec withRound(int r) {
            return new Spec(target, workload, threads, r, ops, queriesPerTxn, gapMs, warmupMs, measureMs,
                    txnPerSecond, medianUs, slowShare, slowUs, failures, failAfterMs);
        }
    }

    /** One archived sample. */
    public record Row(int stepId, String producer, String op, long startUs, long latencyUs, String status, int queries,
                      boolean warmup) {
        public long endUs() {
            return startUs + latencyUs;
        }

        public boolean ok() {
            return status.equals("ok");
        }
    }

    /** A step's phase boundaries as its producers reported them, µs (merged: earliest start, latest end). */
    public record Phases(long startUs, long measureStartUs, long measureEndUs) {}

    public final String runId;
    public final List<Spec> specs;
    public final List<SyntheticRun.Rec> records = new ArrayList<>();
    public final List<Row> rows = new ArrayList<>();
    public final List<WindowStats> windows = new ArrayList<>();
    public final List<Phases> phases = new ArrayList<>();
    public final List<String> outcomes = new ArrayList<>();

    /**
     * @param v3 {@code step_ended} version 3 (phase boundaries recorded) or version 2 (the archive's fallback)
     */
    public ProofRun(String runId, long seed, long startMs, List<Spec> specs, boolean v3) {
        this.runId = runId;
        this.specs = List.copyOf(specs);
        Random rnd = new Random(seed);
        Map<String, TargetInfo> targets = new LinkedHashMap<>();
        specs.forEach(s -> targets.putIfAbsent(s.target(), new TargetInfo(s.target(), "jdbc:h2:mem:" + s.target(),
                "H2", "2.3.232", Map.of("durability", "none"), null, null, 1, null, null)));
        for (String p : PRODUCERS) {
            control(new RunStarted(runId, startMs, p, "proof-plan", List.copyOf(targets.values()), Map.of(),
                    RunSettings.NONE));
        }
        Map<String, Long> seq = new TreeMap<>();
        Map<String, Long> samplesSent = new TreeMap<>();
        PRODUCERS.forEach(p -> seq.put(p, 0L));
        long atUs = startMs * 1000;
        for (int i = 0; i < specs.size(); i++) {
            Spec s = specs.get(i);
            int stepId = i + 1;
            atUs += s.gapMs() * 1000;
            long stepStartMs = atUs / 1000;
            for (String p : PRODUCERS) {
                control(new StepStarted(runId, stepStartMs, p, stepId, targets.get(s.target()), s.workload(),
                        SyntheticRun.threadShare(s.threads(), PRODUCERS.size(), PRODUCERS.indexOf(p)), s.round(), s.warmupMs(), s.measureMs(), s.ops(), s.queriesPerTxn(), Map.of(),
                        SyntheticRun.rtt(stepId, PRODUCERS.indexOf(p))));
            }
            Map<Long, Histogram> hist = new TreeMap<>();
            Map<Long, long[]> counters = new TreeMap<>(); // errors, queries, warmup
            Map<Long, Map<String, Long>> classes = new TreeMap<>();
            long mergedStart = Long.MAX_VALUE;
            long mergedMeasureStart = Long.MAX_VALUE;
            long mergedMeasureEnd = Long.MIN_VALUE;
            long stepEnd = atUs;
            String outcome = s.failAfterMs() < 0 ? StepEnded.COMPLETED
                    : "failed: connection_lost (not ignored): Communications link failure";
            for (int pi = 0; pi < PRODUCERS.size(); pi++) {
                String p = PRODUCERS.get(pi);
                long startUs = atUs + pi * 173;
                long measureStartUs = startUs + s.warmupMs() * 1000;
                long stopUs = s.failAfterMs() < 0 ? measureStartUs + s.measureMs() * 1000
                        : measureStartUs + s.failAfterMs() * 1000;
                SampleBlockEncoder enc = new SampleBlockEncoder(512, false);
                long blocksAtStart = seq.get(p);
                long samples = 0;
                long errors = 0;
                long lastEnd = stopUs;
                double t = startUs;
                while (true) {
                    t += 1e6 / s.txnPerSecond() * (0.5 + rnd.nextDouble());
                    long start = (long) t;
                    if (start >= stopUs) {
                        break;
                    }
                    SampleStatus status = SampleStatus.OK;
                    long latency;
                    double u = rnd.nextDouble();
                    Failure failure = null;
                    for (Failure f : s.failures()) {
                        if (u < f.share()) {
                            failure = f;
                            break;
                        }
                        u -= f.share();
                    }
                    if (failure != null) {
                        status = failure.status();
                        latency = failure.minLatencyUs()
                                + (long) (rnd.nextDouble() * (failure.maxLatencyUs() - failure.minLatencyUs()));
                    } else if (rnd.nextDouble() < s.slowShare()) {
                        latency = s.slowUs() + rnd.nextInt(1000);
                    } else {
                        latency = Math.max(1, (long) (s.medianUs() * Math.exp(rnd.nextGaussian() * 0.3)));
                    }
                    int op = rnd.nextInt(s.ops().size());
                    boolean warmup = start < measureStartUs;
                    int queries = status == SampleStatus.OK ? s.queriesPerTxn() : 1 + rnd.nextInt(s.queriesPerTxn());
                    enc.add(start, latency, start, op, status, queries, warmup);
                    rows.add(new Row(stepId, p, s.ops().get(op), start, latency, status.label(), queries, warmup));
                    samples++;
                    errors += status.isError() ? 1 : 0;
                    lastEnd = Math.max(lastEnd, start + latency);
                    long w = (start + latency) / 1_000_000 * 1000;
                    LatencyHistograms.record(hist.computeIfAbsent(w, k -> LatencyHistograms.create()), latency);
                    long[] c = counters.computeIfAbsent(w, k -> new long[3]);
                    c[0] += status.isError() ? 1 : 0;
                    c[1] += queries;
                    c[2] += warmup ? 1 : 0;
                    if (status.isError()) {
                        classes.computeIfAbsent(w, k -> new TreeMap<>()).merge(status.label(), 1L, Long::sum);
                    }
                    if (enc.isFull()) {
                        seal(enc, p, seq, stepId, start);
                    }
                }
                if (!enc.isEmpty()) {
                    seal(enc, p, seq, stepId, lastEnd);
                }
                sample(SampleBlockEncoder.marker(runId, p, seq.get(p), stepId, SampleBlock.FLAG_END_OF_STEP, lastEnd,
                        s.ops()), p);
                seq.merge(p, 1L, Long::sum);
                // by time the measurement ends at its nominal end or with the last transaction; a failure ends it
                // when the last transaction in flight did
                long measureEndUs = lastEnd;
                mergedStart = Math.min(mergedStart, startUs);
                mergedMeasureStart = Math.min(mergedMeasureStart, measureStartUs);
                mergedMeasureEnd = Math.max(mergedMeasureEnd, measureEndUs);
                stepEnd = Math.max(stepEnd, measureEndUs);
                samplesSent.merge(p, samples, Long::sum);
                control(v3
                        ? new StepEnded(runId, measureEndUs / 1000 + 1, p, stepId, samples, seq.get(p) - blocksAtStart,
                                errors, outcome, false, 0L, 0L, 0L, startUs, measureStartUs, measureEndUs,
                                s.threads(), 0L, 10.0, 20.0)
                        : new StepEnded(runId, measureEndUs / 1000 + 1, p, stepId, samples,
                                seq.get(p) - blocksAtStart, errors, outcome, false, 0L, 0L, 0L));
            }
            phases.add(new Phases(mergedStart, mergedMeasureStart, mergedMeasureEnd));
            outcomes.add(outcome);
            for (Map.Entry<Long, Histogram> e : hist.entrySet()) {
                long[] c = counters.get(e.getKey());
                WindowStats w = WindowStats.of(runId, stepId, WindowStats.ALL_OPS, e.getKey(), e.getKey() + 1000,
                        e.getValue(), c[0], classes.getOrDefault(e.getKey(), Map.of()), c[1], c[2], 0);
                windows.add(w);
                records.add(new SyntheticRun.Rec(Topics.WINDOWS, 0, w.scopeKey().getBytes(StandardCharsets.UTF_8),
                        Json.write(w)));
            }
            atUs = stepEnd;
        }
        for (String p : PRODUCERS) {
            control(new RunEnded(runId, atUs / 1000 + 10, p, seq.get(p), samplesSent.getOrDefault(p, 0L),
                    outcomes.stream().allMatch(StepEnded.COMPLETED::equals) ? StepEnded.COMPLETED
                            : outcomes.stream().filter(o -> !o.equals(StepEnded.COMPLETED)).findFirst().orElseThrow()));
        }
    }

    private void seal(SampleBlockEncoder enc, String producer, Map<String, Long> seq, int stepId, long sealedAtUs) {
        Spec s = specs.get(stepId - 1);
        sample(enc.seal(runId, producer, seq.get(producer), stepId, sealedAtUs, s.ops(), 0), producer);
        seq.merge(producer, 1L, Long::sum);
        enc.reset();
    }

    private void sample(byte[] block, String producer) {
        records.add(new SyntheticRun.Rec(Topics.SAMPLES, 0, (runId + "/" + producer).getBytes(StandardCharsets.UTF_8),
                block));
    }

    private void control(ControlEvent e) {
        records.add(new SyntheticRun.Rec(Topics.CONTROL, 0, runId.getBytes(StandardCharsets.UTF_8), Json.write(e)));
    }

    /** The measured samples of a step as the reference model takes them. */
    public List<ExactFigures.Sample> measured(int stepId) {
        return rows.stream().filter(r -> r.stepId() == stepId && !r.warmup())
                .map(r -> new ExactFigures.Sample(r.latencyUs(), r.status(), r.queries(), r.op())).toList();
    }

    /** The span a step's rates divide by: its recorded boundaries (v3), or its measured samples' span (fallback). */
    public long spanUs(int stepId, boolean recorded) {
        if (recorded) {
            Phases ph = phases.get(stepId - 1);
            return ph.measureEndUs() - ph.measureStartUs();
        }
        List<Row> m = rows.stream().filter(r -> r.stepId() == stepId && !r.warmup()).toList();
        return m.stream().mapToLong(Row::endUs).max().orElseThrow()
                - m.stream().mapToLong(Row::startUs).min().orElseThrow();
    }

    /** The expected figures of the given steps pooled. */
    public ExactFigures.Expected expected(List<Integer> stepIds, boolean recorded) {
        return ExactFigures.of(stepIds.stream().map(id -> new ExactFigures.Step(measured(id), spanUs(id, recorded)))
                .toList());
    }
}
