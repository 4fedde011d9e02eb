package io.tailstream.benchmarks;

import static io.tailstream.benchmarks.EmissionBench.arg;

import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * End-to-end cost of emission: maximum closed-loop TPS against embedded in-memory H2 with every sample emitted to a
 * real Kafka broker (B) and with emission off, as {@code run --no-emit} (A), alternating A B A B A in one JVM (same
 * JIT, same data), and the ratio B / A. The target: emission changes maximum TPS by less than 3%.
 *
 * <p>Producer only: the aggregator and archiver do not run (separate stages that a real evaluation runs elsewhere;
 * their cost on a shared machine is a capacity question, not emission overhead). The broker (KRaft, Kafka's own
 * server code) runs
 * <ul>
 *   <li>in this JVM by default, as {@code run} and {@code demo} start it: the broker's work then counts as the
 *       producer's, an upper bound of the overhead;</li>
 *   <li>in a child JVM with {@code -Dtailstream.bench.broker=process}, optionally pinned with
 *       {@code -Dtailstream.bench.brokerCpus=0} ({@code taskset -c}); run this JVM pinned to the other CPUs
 *       ({@code taskset -c 1 java ...}) and the broker stands in for one on another machine, as in an evaluation,
 *       while the load generator has the same CPU in every run.</li>
 * </ul>
 * What is measured is the producer's emission path: workers recording samples, the emitter thread sealing and
 * compressing blocks, the Kafka client (and the broker's writes when it is in-process).
 *
 * <p>Run (from the repository root):
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.benchmarks.EmissionOverheadMain \
 *     [workload oltp_point_select] [threads 4] [seconds 20] [warmup seconds 5] [table_size 10000] [runs 5]
 * </pre>
 * Each run prints its TPS and the load average before it, so a run disturbed by other work on the machine shows.
 *
 * <p>Separate runs compile the workers' loop anew each time and catch H2's and the JVM's slow swings: on a small
 * machine their ratio varies far more than 3% between sets. {@link EmissionInterleavedMain} switches emission within
 * one step and is the measurement to quote; this one stays for per-run CPU splits and settings comparisons.
 */
public final class EmissionOverheadMain {

    private static final Map<String, Object> PRODUCER_CONFIG = EmissionBench.producerConfig();

    private EmissionOverheadMain() {}

    public static void main(String[] args) throws Exception {
        String workload = arg(args, 0, "oltp_point_select");
        int threads = Integer.parseInt(arg(args, 1, "4"));
        int seconds = Integer.parseInt(arg(args, 2, "20"));
        int warmup = Integer.parseInt(arg(args, 3, "5"));
        String tableSize = arg(args, 4, "10000");
        int runs = Integer.parseInt(arg(args, 5, "5"));
        if (runs < 2) {
            throw new IllegalArgumentException("runs must be >= 2 (A B ...), was " + runs);
        }
        List<WorkloadSpec> workloads = List.of(new WorkloadSpec(workload, Map.of("table_size", tableSize)));
        Target target = EmissionBench.preparedH2(workloads);
        Path spoolDir = Files.createTempDirectory("emission-overhead-spool");
        String where = EmissionBench.brokerDescription();
        System.out.printf(Locale.ROOT, "emission overhead: %s, %d threads, %d s (+%d s warm-up) per run, embedded H2,"
                + " %s, %d CPUs for this JVM, %s%n", workload, threads, seconds, warmup, where,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        double[] tps = new double[runs];
        double[] cpuPerTx = new double[runs];
        try (EmissionBench.Broker kafka = EmissionBench.Broker.start()) {
            for (int i = 0; i < runs; i++) {
                boolean emit = i % 2 == 1;
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                RunPlan plan = new RunPlan("overhead-" + i + "-" + System.currentTimeMillis(), "emission-overhead",
                        List.of(target), workloads, List.of(threads), 1, Duration.ofSeconds(warmup),
                        Duration.ofSeconds(seconds), 0, false, null, null);
                RunResult result;
                ProcessCpuWindow cpu = ProcessCpuWindow.schedule(Duration.ofSeconds(warmup + 1L),
                        Duration.ofSeconds(warmup + seconds - 1L), kafka.cpuNanos());
                try (SampleSink sink = emit
                        ? KafkaSampleSink.create(kafka.bootstrapServers(), plan.runId(), "overhead", PRODUCER_CONFIG,
                                EmissionBench.emitterSettings(), SpoolSettings.in(spoolDir))
                        : SampleSink.noop("overhead")) {
                    result = new BenchmarkRunner(sink, EmissionBench.QUIET).run(plan);
                }
                StepResult s = result.steps().get(0);
                tps[i] = s.tps();
                cpuPerTx[i] = cpu.nanosPerSecond() / tps[i] / 1000.0;
                System.out.printf(Locale.ROOT, "run %d  %s  tps %10.1f  process CPU %.2f µs/tx  errors %d  samples sent"
                        + " %,d  load before %.2f%n", i + 1, emit ? "B emit   " : "A no-emit", tps[i], cpuPerTx[i],
                        s.errors(), result.samplesSent(), load);
                System.out.println("      CPU ns per transaction by thread role: " + cpu.split(tps[i]));
            }
        }
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        List<Double> pairRatios = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            (i % 2 == 1 ? b : a).add(tps[i]);
            if (i % 2 == 1 && i + 1 < runs) {
                pairRatios.add(tps[i] / ((tps[i - 1] + tps[i + 1]) / 2));
            }
        }
        double meanA = a.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double meanB = b.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        System.out.printf(Locale.ROOT, "mean TPS: A no-emit %.1f (%d runs), B emit %.1f (%d runs)%n", meanA, a.size(),
                meanB, b.size());
        System.out.printf(Locale.ROOT, "ratio B/A %.4f: emission changes maximum TPS by %+.2f%% (target: less than"
                + " 3%%)%n", meanB / meanA, (meanB / meanA - 1) * 100);
        System.out.println("each B against the mean of the A runs around it: " + pairRatios.stream()
                .map(r -> String.format(Locale.ROOT, "%.4f", r)).toList());
        // CPU-bound, maximum TPS is inversely proportional to the process CPU a transaction costs; unlike TPS, CPU
        // time per transaction does not move when the machine lends the process less CPU (other load, steal)
        double cpuA = 0;
        double cpuB = 0;
        for (int i = 0; i < runs; i++) {
            if (i % 2 == 1) {
                cpuB += cpuPerTx[i] / b.size();
            } else {
                cpuA += cpuPerTx[i] / a.size();
            }
        }
        System.out.printf(Locale.ROOT, "process CPU per transaction: A %.2f µs, B %.2f µs: emission costs %+.2f%% CPU"
                + " per transaction, i.e. changes CPU-bound maximum TPS by %+.2f%%%n", cpuA, cpuB,
                (cpuB / cpuA - 1) * 100, (cpuA / cpuB - 1) * 100);
    }

    /** CPU time between two instants after its creation (the steady part of a run), by thread role. */
    private static final class ProcessCpuWindow {
        private final CompletableFuture<CpuSnapshot> from = new CompletableFuture<>();
        private final CompletableFuture<CpuSnapshot> to = new CompletableFuture<>();

        /** @param brokerProcessCpu CPU time of a broker in another process (ns), or 0 when it is in this one */
        static ProcessCpuWindow schedule(Duration start, Duration end, LongSupplier brokerProcessCpu) {
            ProcessCpuWindow w = new ProcessCpuWindow();
            CompletableFuture.delayedExecutor(start.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> w.from.complete(CpuSnapshot.take(brokerProcessCpu)));
            CompletableFuture.delayedExecutor(end.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> w.to.complete(CpuSnapshot.take(brokerProcessCpu)));
            return w;
        }

        double nanosPerSecond() {
            CpuSnapshot b = to.join();
            CpuSnapshot a = from.join();
            return b.processCpuSince(a) / b.secondsSince(a);
        }

        /** CPU per transaction (ns) by thread role, for a run of {@code tps} transactions per second. */
        String split(double tps) {
            CpuSnapshot b = to.join();
            CpuSnapshot a = from.join();
            double seconds = b.secondsSince(a);
            StringBuilder out = new StringBuilder();
            EmissionRoles.cpuBetween(a, b).forEach((role, ns) -> out.append(String.format(Locale.ROOT, "%s %.0f  ",
                    role, ns / seconds / tps)));
            return out.toString().trim();
        }
    }
}
