package io.tailstream.benchmarks;

import static io.tailstream.benchmarks.EmissionBench.arg;

import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
        List<InterleavedReport.Segment> segments = new ArrayList<>();
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
                        segments.add(new InterleavedReport.Segment(emitting, tx1 - tx0, cpu1.secondsSince(cpu0),
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
        InterleavedReport.print(segments);
    }

    /** Position in the pattern A B B A: 0 and 3 emission off, 1 and 2 on. */
    private static int quartetPosition(int segment) {
        return segment % 4;
    }

    private static void parkUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }
}
