package io.tailstream.benchmarks;

import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * Emission on vs off, interleaved: one closed-loop step against embedded in-memory H2 whose samples go to a real Kafka
 * broker, with emission switched off and on every few seconds (A = off, as {@code run --no-emit}; B = on), in
 * quartets A B B A. Each segment's TPS is counted over its steady part (the first {@code settle} of a segment is not
 * counted: blocks of the previous segment are still being sealed, sent and appended then). The A B B A order cancels
 * a speed that drifts linearly over a quartet; the result is the mean TPS of the B segments over that of the A
 * segments, with a 95% bootstrap interval from resampling whole quartets.
 *
 * <p>Why interleaved: on a shared 2-core machine the speed of separate runs swings by ±15% from one minute to the
 * next (other tenants, and H2's own contention depending on how its 4 threads are scheduled on 2 cores), five times
 * the effect to be measured; {@link EmissionOverheadMain}'s separate A and B runs cannot resolve it. Within one step
 * the same threads, connections, JIT state and data serve both modes, and slow drifts cancel.
 *
 * <p>What off means: the workers' writers return at once (as {@code --no-emit}'s do), so nothing is sealed, sent or
 * appended; the Kafka producer and broker stay up and idle, as in {@link EmissionOverheadMain}'s A runs. Both modes
 * count the transaction (one opaque store per sample), so the counting costs both the same.
 *
 * <p>Run (from the repository root; {@code 45 + quartets × 4 × segment} seconds):
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.benchmarks.EmissionInterleavedMain \
 *     [workload oltp_point_select] [threads 4] [segment seconds 4] [warm-up seconds 45] [table_size 10000] [quartets 20]
 * </pre>
 * {@code -Dtailstream.bench.settleMs=N} (default 1000) sets the uncounted start of each segment; the broker and
 * producer settings of {@link EmissionBench} apply.
 */
public final class EmissionInterleavedMain {

    private static final long SETTLE_NANOS =
            Duration.ofMillis(Long.getLong("tailstream.bench.settleMs", 1000)).toNanos();
    private static final int BOOTSTRAP_RESAMPLES = 10_000;
    /** Warm-up segments at the end of the warm-up that switch like the measured ones (whole quartets). */
    private static final int TOGGLED_WARMUP_SEGMENTS = 44;

    private EmissionInterleavedMain() {}

    public static void main(String[] args) throws Exception {
        String workload = arg(args, 0, "oltp_point_select");
        int threads = Integer.parseInt(arg(args, 1, "4"));
        long segmentNanos = Duration.ofMillis((long) (Double.parseDouble(arg(args, 2, "4")) * 1000)).toNanos();
        int warmupSeconds = Integer.parseInt(arg(args, 3, "45"));
        String tableSize = arg(args, 4, "10000");
        int quartets = Integer.parseInt(arg(args, 5, "20"));
        if (segmentNanos <= SETTLE_NANOS) {
            throw new IllegalArgumentException("a segment must be longer than the settle time ("
                    + SETTLE_NANOS / 1_000_000 + " ms)");
        }
        if (quartets < 2) {
            throw new IllegalArgumentException("quartets must be >= 2, was " + quartets);
        }
        List<WorkloadSpec> workloads = List.of(new WorkloadSpec(workload, Map.of("table_size", tableSize)));
        Target target = EmissionBench.preparedH2(workloads);
        Path spoolDir = Files.createTempDirectory("emission-interleaved-spool");
        // whole quartets, so that the measured segments start with a quartet's A1
        int warmupSegments = 4 * (int) Math.max(1, Duration.ofSeconds(warmupSeconds).toNanos() / segmentNanos / 4);
        int measuredSegments = 4 * quartets;
        long stepNanos = (warmupSegments + measuredSegments) * segmentNanos + Duration.ofSeconds(3).toNanos();
        System.out.printf(Locale.ROOT, "emission on/off interleaved: %s, %d threads, embedded H2, %s, %d CPUs, %s;"
                        + " %d warm-up segments then %d quartets A B B A of %d ms segments (first %d ms of each not"
                        + " counted)%n", workload, threads, EmissionBench.brokerDescription(),
                Runtime.getRuntime().availableProcessors(), Runtime.version(), warmupSegments, quartets,
                segmentNanos / 1_000_000, SETTLE_NANOS / 1_000_000);
        List<Segment> segments = new ArrayList<>();
        try (EmissionBench.Broker kafka = EmissionBench.Broker.start()) {
            RunPlan plan = new RunPlan("interleaved-" + System.currentTimeMillis(), "emission-interleaved",
                    List.of(target), workloads, List.of(threads), 1, Duration.ZERO, Duration.ofNanos(stepNanos), 0,
                    false, null, null);
            try (SwitchableSink sink = new SwitchableSink(KafkaSampleSink.create(kafka.bootstrapServers(),
                    plan.runId(), "interleaved", EmissionBench.producerConfig(), EmissionBench.emitterSettings(),
                    SpoolSettings.in(spoolDir)))) {
                CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(
                        () -> new BenchmarkRunner(sink, EmissionBench.QUIET).run(plan));
                sink.awaitFirstTransaction(run);
                long next = System.nanoTime();
                for (int i = 0; i < warmupSegments + measuredSegments; i++) {
                    // warm-up: emission on until the last TOGGLED_WARMUP_SEGMENTS (the Kafka client's and broker's
                    // per-request code runs only ~10 times a second and needs minutes to be compiled by C2), then
                    // toggled like the measured part so that both branches are compiled before measuring
                    boolean emitting = i < warmupSegments - TOGGLED_WARMUP_SEGMENTS
                            || quartetPosition(i) == 1 || quartetPosition(i) == 2;
                    sink.emitting = emitting;
                    long start = next;
                    next += segmentNanos;
                    parkUntil(start + SETTLE_NANOS);
                    CpuSnapshot cpu0 = CpuSnapshot.take(kafka.cpuNanos());
                    long tx0 = sink.transactions();
                    parkUntil(next);
                    CpuSnapshot cpu1 = CpuSnapshot.take(kafka.cpuNanos());
                    long tx1 = sink.transactions();
                    if (i >= warmupSegments) {
                        segments.add(new Segment(emitting, tx1 - tx0, cpu1.secondsSince(cpu0),
                                cpu1.processCpuSince(cpu0), EmissionRoles.cpuBetween(cpu0, cpu1)));
                    }
                }
                sink.emitting = true;
                RunResult result = run.join();
                System.out.printf(Locale.ROOT, "step: %,d transactions, %,d samples acknowledged by Kafka, %d"
                        + " errors%n", result.steps().get(0).transactions(), result.samplesSent(),
                        result.steps().get(0).errors());
            }
        }
        report(segments);
    }

    /** Position in the pattern A B B A: 0 and 3 emission off, 1 and 2 on. */
    private static int quartetPosition(int segment) {
        return segment % 4;
    }

    private static void report(List<Segment> segments) {
        StringBuilder line = new StringBuilder("segment TPS:");
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            line.append(i % 4 == 0 ? "\n  " : " ").append(s.emitting ? "B " : "A ")
                    .append(String.format(Locale.ROOT, "%,.0f", s.tps()));
        }
        System.out.println(line);
        List<Quartet> quartets = new ArrayList<>();
        for (int q = 0; q + 3 < segments.size(); q += 4) {
            quartets.add(Quartet.of(segments.subList(q, q + 4)));
        }
        double ratio = ratioOfMeans(quartets);
        double[] ci = bootstrapInterval(quartets);
        System.out.printf(Locale.ROOT, "TPS B/A (mean TPS of the B segments over that of the A segments, %d quartets):"
                + " %.4f (95%% bootstrap interval over quartets %.4f .. %.4f)%n", quartets.size(), ratio, ci[0], ci[1]);
        // A segments keep the emitter's and the Kafka client's threads alive and idle, which --no-emit does not
        // start: a CPU-bound A would be faster without them by at most their share of its CPU, so the ratio is also
        // given against that faster A (conservative)
        double idleShare = idleEmissionShare(segments);
        double conservative = 1 - idleShare;
        System.out.printf(Locale.ROOT, "emission changes maximum TPS by %+.2f%% (95%% interval %+.2f%% .. %+.2f%%)%n",
                (ratio - 1) * 100, (ci[0] - 1) * 100, (ci[1] - 1) * 100);
        System.out.printf(Locale.ROOT, "idle emitter and Kafka client threads in A: %.2f%% of A's CPU; against an A"
                        + " without them: %+.2f%% (95%% interval %+.2f%% .. %+.2f%%)%n", idleShare * 100,
                (ratio * conservative - 1) * 100, (ci[0] * conservative - 1) * 100, (ci[1] * conservative - 1) * 100);
        // the question is a cost: emission lowering maximum TPS by 3% or more
        double low = ci[0] * conservative;
        System.out.printf(Locale.ROOT, "target: emission costs less than 3%% of maximum TPS -> %s%n", low > 0.97
                ? "shown (a cost of 3% or more is outside the conservative interval)"
                : ratio * conservative > 0.97 ? "not shown (the estimate is within 3%, the interval is not)"
                        : "not met");
        cpuSplit(segments);
    }

    /**
     * Mean TPS of the B segments over mean TPS of the A segments. Not the mean of per-quartet ratios: with segments
     * this noisy, a mean of ratios is biased upwards (a quartet whose A segments happened to be slow weighs more).
     */
    static double ratioOfMeans(List<Quartet> quartets) {
        double a = 0;
        double b = 0;
        for (Quartet q : quartets) {
            a += q.aTps;
            b += q.bTps;
        }
        return b / a;
    }

    /** 2.5th and 97.5th percentiles of {@link #ratioOfMeans} over quartets resampled with replacement (fixed seed). */
    static double[] bootstrapInterval(List<Quartet> quartets) {
        SplittableRandom random = new SplittableRandom(20261130L);
        double[] ratios = new double[BOOTSTRAP_RESAMPLES];
        List<Quartet> sample = new ArrayList<>(quartets.size());
        for (int r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
            sample.clear();
            for (int i = 0; i < quartets.size(); i++) {
                sample.add(quartets.get(random.nextInt(quartets.size())));
            }
            ratios[r] = ratioOfMeans(sample);
        }
        Arrays.sort(ratios);
        return new double[] {ratios[(int) (0.025 * BOOTSTRAP_RESAMPLES)],
                ratios[(int) (0.975 * BOOTSTRAP_RESAMPLES) - 1]};
    }

    /** Summed TPS of a quartet's two A and two B segments. */
    record Quartet(double aTps, double bTps) {
        static Quartet of(List<Segment> four) {
            double a = 0;
            double b = 0;
            int emitting = 0;
            for (Segment s : four) {
                if (s.emitting) {
                    b += s.tps();
                    emitting++;
                } else {
                    a += s.tps();
                }
            }
            if (emitting != 2) {
                throw new IllegalStateException("a quartet needs two A and two B segments, had " + emitting + " B");
            }
            return new Quartet(a, b);
        }
    }

    /** The emitter's and Kafka client's share of the process CPU in A segments, where they only idle. */
    private static double idleEmissionShare(List<Segment> segments) {
        long idle = 0;
        long process = 0;
        for (Segment s : segments) {
            if (!s.emitting) {
                idle += s.cpuByRole.getOrDefault(EmissionRoles.EMITTER, 0L)
                        + s.cpuByRole.getOrDefault(EmissionRoles.KAFKA_CLIENT, 0L);
                process += s.processCpuNanos;
            }
        }
        return (double) idle / process;
    }

    /** CPU per transaction by thread role, over all A and all B segments. */
    private static void cpuSplit(List<Segment> segments) {
        for (boolean emitting : new boolean[] {false, true}) {
            long transactions = 0;
            long processCpu = 0;
            double seconds = 0;
            Map<String, Long> byRole = new TreeMap<>();
            for (Segment s : segments) {
                if (s.emitting == emitting) {
                    transactions += s.transactions;
                    processCpu += s.processCpuNanos;
                    seconds += s.seconds;
                    s.cpuByRole.forEach((role, ns) -> byRole.merge(role, ns, Long::sum));
                }
            }
            double meanSegmentTps = segments.stream().filter(s -> s.emitting == emitting)
                    .mapToDouble(Segment::tps).average().orElseThrow();
            System.out.printf(Locale.ROOT, "%s %,d transactions in %.1f s: %,.0f TPS (mean of segments %,.0f)%n",
                    emitting ? "B emit   " : "A no-emit", transactions, seconds, transactions / seconds,
                    meanSegmentTps);
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "%s process CPU %.2f cores; CPU per transaction: process %.0f ns;", emitting ? "B emit   "
                            : "A no-emit", processCpu / seconds / 1e9, (double) processCpu / transactions));
            long n = transactions;
            byRole.forEach((role, ns) -> out.append(String.format(Locale.ROOT, "  %s %.1f", role, (double) ns / n)));
            System.out.println(out);
        }
    }

    private static void parkUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private record Segment(boolean emitting, long transactions, double seconds, long processCpuNanos,
                           Map<String, Long> cpuByRole) {
        double tps() {
            return transactions / seconds;
        }
    }

    /**
     * A sink whose emission can be switched off and on while a step runs. Its writers count every transaction, emitting
     * or not; control events and step boundaries always go to the real sink.
     */
    static final class SwitchableSink implements SampleSink {
        private final SampleSink delegate;
        private final CopyOnWriteArrayList<CountingWriter> writers = new CopyOnWriteArrayList<>();
        volatile boolean emitting = true;

        SwitchableSink(SampleSink delegate) {
            this.delegate = delegate;
        }

        /** Transactions completed so far by every worker. */
        long transactions() {
            long sum = 0;
            for (CountingWriter w : writers) {
                sum += w.count();
            }
            return sum;
        }

        void awaitFirstTransaction(CompletableFuture<?> run) {
            while (transactions() == 0) {
                if (run.isDone()) {
                    run.join(); // throws the run's failure
                    throw new IllegalStateException("the step ended before its first transaction");
                }
                LockSupport.parkNanos(10_000_000);
            }
        }

        @Override
        public String producerId() {
            return delegate.producerId();
        }

        @Override
        public void publish(ControlEvent event) {
            delegate.publish(event);
        }

        @Override
        public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
            StepEmission step = delegate.beginStep(stepId, ops, openLoop);
            return new StepEmission() {
                @Override
                public SampleWriter writer() {
                    CountingWriter w = new CountingWriter(step.writer(), SwitchableSink.this);
                    writers.add(w);
                    return w;
                }

                @Override
                public StepCounts finish() {
                    return step.finish();
                }
            };
        }

        @Override
        public long blocksSent() {
            return delegate.blocksSent();
        }

        @Override
        public long samplesSent() {
            return delegate.samplesSent();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

    /** One worker's writer: counts the transaction, then emits it if emission is on. */
    static final class CountingWriter implements SampleWriter {
        private static final VarHandle COUNT;

        static {
            try {
                COUNT = MethodHandles.lookup().findVarHandle(CountingWriter.class, "count", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final SampleWriter delegate;
        private final SwitchableSink sink;
        @SuppressWarnings("unused") // through COUNT
        private long count;

        CountingWriter(SampleWriter delegate, SwitchableSink sink) {
            this.delegate = delegate;
            this.sink = sink;
        }

        long count() {
            return (long) COUNT.getOpaque(this);
        }

        @Override
        public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                          SampleStatus status, int queries, boolean warmup) {
            // single writer: the worker thread; the benchmark's thread reads it
            COUNT.setOpaque(this, (long) COUNT.getOpaque(this) + 1);
            if (sink.emitting) {
                delegate.write(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries,
                        warmup);
            }
        }

        @Override
        public void flush() {
            delegate.flush();
        }
    }

    private static String arg(String[] args, int i, String dflt) {
        return args.length > i ? args[i] : dflt;
    }
}
