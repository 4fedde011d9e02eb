package io.tailstream.benchmarks;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end cost of emission: maximum closed-loop TPS against embedded in-memory H2 with every sample emitted to a
 * real Kafka broker (B) and with emission off, as {@code run --no-emit} (A), alternating A B A B A in one JVM (same
 * JIT, same data), and the ratio B / A. The target: emission changes maximum TPS by less than 3%.
 *
 * <p>Producer only: the broker runs in this JVM (KRaft, Kafka's own server code, as {@code run} and {@code demo}
 * start it), the aggregator and archiver do not run. What is measured is the producer's emission path: workers
 * recording samples, the emitter thread sealing and compressing blocks, the Kafka client, the broker's writes. The
 * aggregator and archiver are separate stages that a real evaluation runs elsewhere (their cost on a shared
 * machine is a capacity question, not emission overhead); the broker sharing this machine's cores makes the
 * figure an upper bound of the overhead.
 *
 * <p>Run (from the repository root):
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.benchmarks.EmissionOverheadMain \
 *     [workload oltp_point_select] [threads 4] [seconds 20] [warmup seconds 5] [table_size 10000] [runs 5]
 * </pre>
 * Each run prints its TPS and the load average before it, so a run disturbed by other work on the machine shows.
 */
public final class EmissionOverheadMain {

    /**
     * Kafka producer settings of the emitting runs, to compare with the producer's defaults:
     * {@code -Dtailstream.bench.compression=zstd|lz4|none}, {@code -Dtailstream.bench.zstdLevel=N},
     * {@code -Dtailstream.bench.lingerMs=N}.
     */
    private static final Map<String, Object> PRODUCER_CONFIG = producerConfig();

    private static Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>();
        String compression = System.getProperty("tailstream.bench.compression");
        if (compression != null) {
            config.put("compression.type", compression);
        }
        String zstdLevel = System.getProperty("tailstream.bench.zstdLevel");
        if (zstdLevel != null) {
            config.put("compression.zstd.level", Integer.parseInt(zstdLevel));
        }
        String linger = System.getProperty("tailstream.bench.lingerMs");
        if (linger != null) {
            config.put("linger.ms", Integer.parseInt(linger));
        }
        return Map.copyOf(config);
    }

    private EmissionOverheadMain() {}

    public static void main(String[] args) throws IOException {
        String workload = arg(args, 0, "oltp_point_select");
        int threads = Integer.parseInt(arg(args, 1, "4"));
        int seconds = Integer.parseInt(arg(args, 2, "20"));
        int warmup = Integer.parseInt(arg(args, 3, "5"));
        String tableSize = arg(args, 4, "10000");
        int runs = Integer.parseInt(arg(args, 5, "5"));
        if (runs < 2) {
            throw new IllegalArgumentException("runs must be >= 2 (A B ...), was " + runs);
        }
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Target target = Target.h2InMemory("h2-mem", "emission-overhead");
        List<WorkloadSpec> workloads = List.of(new WorkloadSpec(workload, Map.of("table_size", tableSize)));
        BenchmarkRunner.prepare(target, workloads, 4, quiet);
        Path spoolDir = Files.createTempDirectory("emission-overhead-spool");
        System.out.printf(Locale.ROOT, "emission overhead: %s, %d threads, %d s (+%d s warm-up) per run, embedded H2,"
                + " in-process broker, %d cores, %s%n", workload, threads, seconds, warmup,
                Runtime.getRuntime().availableProcessors(), Runtime.version());
        double[] tps = new double[runs];
        double[] cpuPerTx = new double[runs];
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            for (int i = 0; i < runs; i++) {
                boolean emit = i % 2 == 1;
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                RunPlan plan = new RunPlan("overhead-" + i + "-" + System.currentTimeMillis(), "emission-overhead",
                        List.of(target), workloads, List.of(threads), 1, Duration.ofSeconds(warmup),
                        Duration.ofSeconds(seconds), 0, false, null, null);
                RunResult result;
                ProcessCpuWindow cpu = ProcessCpuWindow.schedule(Duration.ofSeconds(warmup + 1L),
                        Duration.ofSeconds(warmup + seconds - 1L));
                try (SampleSink sink = emit
                        ? KafkaSampleSink.create(kafka.bootstrapServers(), plan.runId(), "overhead", PRODUCER_CONFIG,
                                EmitterSettings.defaults(), SpoolSettings.in(spoolDir))
                        : SampleSink.noop("overhead")) {
                    result = new BenchmarkRunner(sink, quiet).run(plan);
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

    /**
     * CPU time between two instants after its creation (the steady part of a run): the whole process's, and each
     * live Java thread's by role, so a run says where emission's CPU goes. What the process used beyond its Java
     * threads is the JVM's own (GC, JIT).
     */
    private static final class ProcessCpuWindow {
        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private final CompletableFuture<Snapshot> from = new CompletableFuture<>();
        private final CompletableFuture<Snapshot> to = new CompletableFuture<>();

        private record Snapshot(long nanoTime, long processCpu, Map<Long, Long> threadCpu, Map<Long, String> names) {
            static Snapshot take() {
                Map<Long, Long> cpu = new HashMap<>();
                Map<Long, String> names = new HashMap<>();
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    long ns = THREADS.getThreadCpuTime(t.getId());
                    if (ns >= 0) {
                        cpu.put(t.getId(), ns);
                        names.put(t.getId(), t.getName());
                    }
                }
                return new Snapshot(System.nanoTime(), OS.getProcessCpuTime(), cpu, names);
            }
        }

        static ProcessCpuWindow schedule(Duration start, Duration end) {
            ProcessCpuWindow w = new ProcessCpuWindow();
            CompletableFuture.delayedExecutor(start.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> w.from.complete(Snapshot.take()));
            CompletableFuture.delayedExecutor(end.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> w.to.complete(Snapshot.take()));
            return w;
        }

        double nanosPerSecond() {
            Snapshot a = from.join();
            Snapshot b = to.join();
            return (b.processCpu() - a.processCpu()) / ((b.nanoTime() - a.nanoTime()) / 1e9);
        }

        /** CPU per transaction (ns) by thread role, for a run of {@code tps} transactions per second. */
        String split(double tps) {
            Snapshot a = from.join();
            Snapshot b = to.join();
            double seconds = (b.nanoTime() - a.nanoTime()) / 1e9;
            Map<String, Long> byRole = new TreeMap<>();
            long javaThreads = 0;
            for (Map.Entry<Long, Long> e : b.threadCpu().entrySet()) {
                long used = e.getValue() - a.threadCpu().getOrDefault(e.getKey(), 0L);
                byRole.merge(role(b.names().get(e.getKey())), used, Long::sum);
                javaThreads += used;
            }
            byRole.put("jvm (gc, jit)", (b.processCpu() - a.processCpu()) - javaThreads);
            StringBuilder out = new StringBuilder();
            byRole.forEach((role, ns) -> out.append(String.format(Locale.ROOT, "%s %.0f  ", role,
                    ns / seconds / tps)));
            return out.toString().trim();
        }

        private static String role(String name) {
            if (name.startsWith("tailstream-worker")) {
                return "workers";
            }
            if (name.startsWith("tailstream-emitter") || name.startsWith("tailstream-spool")) {
                return "emitter";
            }
            if (name.startsWith("kafka-producer-network-thread")) {
                return "kafka client";
            }
            if (name.startsWith("data-plane") || name.startsWith("kafka-") || name.startsWith("quorum")
                    || name.contains("raft") || name.startsWith("ExpirationReaper")
                    || name.startsWith("broker") || name.startsWith("controller")) {
                return "broker";
            }
            return "other";
        }
    }

    private static String arg(String[] args, int i, String dflt) {
        return args.length > i ? args[i] : dflt;
    }
}
