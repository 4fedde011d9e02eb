package io.tailstream.reporter.archive;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Benchmark of {@code tailstream archive --until-caught-up} over a backlog (not a unit test; figures in
 * docs/archive-benchmarks.md). Starts the in-process broker, fills its samples topic with N samples in blocks of
 * 1,024 encoded by the producer's {@link SampleBlockEncoder} (sent as the producer sends them: zstd level 1,
 * acknowledged), then archives the backlog in a child JVM exactly as the CLI does ({@link Archiver} with the
 * default {@link ArchiverConfig}) and reports the child's samples/s, CPU per sample (the whole process: JIT and GC
 * included), peak heap and peak RSS, and the written Parquet's bytes per sample by column.
 *
 * <pre>
 * ./mvnw -q -o -pl cli -am package -DskipTests &amp;&amp; ./mvnw -q -o -pl reporter test-compile
 * java -cp reporter/target/test-classes:reporter/target/classes:cli/target/tailstream-all.jar \
 *   io.tailstream.reporter.archive.ArchiveBenchmarkMain 10000000 [child -Xmx, 512m unless given; "default": the JVM's] [child JVM options...]
 * </pre>
 *
 * Shape: one run, one producer, two closed-loop steps of 8 workers each interleaving their blocks (as a producer's
 * emitter seals them): {@code oltp_point_select} (one op, ~400 µs) then {@code oltp_read_write}-like (two ops,
 * ~2-14 ms, 20 queries), log-normal latencies, 0.5 % deadlocks, 10 % of each step warm-up.
 */
public final class ArchiveBenchmarkMain {

    private static final long T0_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final String RUN = "bench-archive";
    private static final String PRODUCER = "bench-producer";
    private static final int WORKERS = 8;

    private ArchiveBenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        long samples = Long.parseLong(args[0]);
        String heap = args.length > 1 ? args[1] : "512m";
        List<String> jvmOptions = args.length > 2 ? List.of(args).subList(2, args.length) : List.of();
        Path dir = Files.createTempDirectory("tailstream-archive-bench");
        Path archive = dir.resolve("archive");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), true)) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            long t0 = System.nanoTime();
            long blocks = produce(kafka.bootstrapServers(), samples);
            System.out.printf(Locale.ROOT, "produced %,d samples in %,d blocks in %.1f s%n", samples, blocks,
                    (System.nanoTime() - t0) / 1e9);
            runChild(kafka.bootstrapServers(), archive, heap, jvmOptions);
        }
        report(archive, samples);
    }

    /** Sends one run of {@code total} samples and waits for every acknowledgement; returns the sample blocks sent. */
    static long produce(String bootstrap, long total) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        p.put(ProducerConfig.COMPRESSION_ZSTD_LEVEL_CONFIG, 1);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        List<Future<?>> acks = new ArrayList<>();
        Random rnd = new Random(1);
        long seq = 0;
        long sampleBlocks = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            java.util.function.BiConsumer<String, byte[]> send = (topic, value) -> {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, PRODUCER.getBytes(), value)));
                if (acks.size() >= 10_000) {
                    drain(acks);
                }
            };
            TargetInfo target = new TargetInfo("mysql", "jdbc:mysql://db1/sbtest", "MySQL", "8.4.3", Map.of(), 900.0,
                    "USD", 1, null);
            List<ControlEvent> control = new ArrayList<>();
            control.add(new RunStarted(RUN, T0_MS, PRODUCER, "bench-plan", List.of(target), Map.of(), Map.of()));
            control.forEach(e -> send.accept(Topics.CONTROL, Json.write(e)));
            long stepStartMs = T0_MS;
            long perStep = total / 2;
            for (int stepId = 1; stepId <= 2; stepId++) {
                long stepSamples = stepId == 1 ? perStep : total - perStep;
                boolean pointSelect = stepId == 1;
                List<String> ops = pointSelect ? List.of("point_select") : List.of("read_write", "read_only");
                long gapNs = pointSelect ? 50_000 : 700_000; // ~20,000 and ~1,400 transactions/s
                long durationMs = stepSamples * gapNs / 1_000_000 + 1;
                long warmupMs = durationMs / 10;
                send.accept(Topics.CONTROL, Json.write(new StepStarted(RUN, stepStartMs, PRODUCER, stepId, target,
                        pointSelect ? "oltp_point_select" : "oltp_read_write", WORKERS, 1, warmupMs,
                        durationMs - warmupMs, ops, pointSelect ? 1 : 20, Map.of("tables", "8"))));
                SampleBlockEncoder[] workers = new SampleBlockEncoder[WORKERS];
                for (int k = 0; k < WORKERS; k++) {
                    workers[k] = new SampleBlockEncoder(1024, false);
                }
                long startNs = stepStartMs * 1_000_000L;
                long errors = 0;
                long blocksAtStart = seq;
                for (long i = 0; i < stepSamples; i++) {
                    startNs += gapNs / 2 + rnd.nextLong(gapNs); // arrivals jitter around the mean rate
                    long startUs = startNs / 1000;
                    int op = pointSelect ? 0 : rnd.nextInt(4) == 0 ? 1 : 0;
                    double median = pointSelect ? 400 : op == 0 ? 14_000 : 2_000;
                    long latency = 20 + (long) (median * Math.exp(rnd.nextGaussian() * 0.5));
                    SampleStatus status = rnd.nextInt(200) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                    errors += status.isError() ? 1 : 0;
                    boolean warmup = startUs < (stepStartMs + warmupMs) * 1000;
                    SampleBlockEncoder enc = workers[(int) (i % WORKERS)];
                    enc.add(startUs, latency, startUs, op, status, pointSelect ? 1 : op == 0 ? 20 : 14, warmup);
                    if (enc.isFull() || i >= stepSamples - WORKERS) {
                        send.accept(Topics.SAMPLES, enc.seal(RUN, PRODUCER, seq++, stepId, startUs + latency, ops, 0));
                        sampleBlocks++;
                        enc.reset();
                    }
                }
                send.accept(Topics.SAMPLES, SampleBlockEncoder.marker(RUN, PRODUCER, seq++, stepId,
                        SampleBlock.FLAG_END_OF_STEP, startNs / 1000, ops));
                send.accept(Topics.CONTROL, Json.write(new StepEnded(RUN, stepStartMs + durationMs, PRODUCER,
                        stepId, stepSamples, seq - blocksAtStart, errors, "completed")));
                stepStartMs += durationMs + 1000;
            }
            send.accept(Topics.CONTROL, Json.write(new RunEnded(RUN, stepStartMs, PRODUCER, seq, total,
                    "completed")));
            producer.flush();
        }
        drain(acks);
        return sampleBlocks;
    }

    private static void drain(List<Future<?>> acks) {
        try {
            for (Future<?> ack : acks) {
                ack.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a benchmark record did not land: " + e.getMessage(), e);
        }
        acks.clear();
    }

    /** Runs the archiver's JVM to the end and echoes its output (which ends with its RESULT line). */
    private static void runChild(String bootstrap, Path archive, String heap, List<String> jvmOptions)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        if (!heap.equals("default")) {
            cmd.add("-Xmx" + heap);
        }
        cmd.addAll(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.tailstream=info"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(), bootstrap,
                archive.toString()));
        Path out = Files.createTempFile("archive-bench-child", ".log");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        int rc = child.waitFor();
        String log = Files.readString(out);
        System.out.print(log);
        Files.delete(out);
        if (rc != 0 || log.lines().noneMatch(l -> l.startsWith("RESULT"))) {
            throw new IllegalStateException("the archiver child exited with " + rc + " without a RESULT line");
        }
    }

    /** Bytes per sample by column of the samples dataset, and a check that every sample is there once. */
    private static void report(Path archive, long samples) throws Exception {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT (block_seq, start_us)) FROM samples")) {
                rs.next();
                System.out.printf(Locale.ROOT, "samples archived %,d (distinct %,d) of %,d%n", rs.getLong(1),
                        rs.getLong(2), samples);
            }
            String files = ArchiveDatabase.sqlString(archive.toAbsolutePath() + "/samples/*/*.parquet");
            try (ResultSet rs = st.executeQuery("SELECT path_in_schema, sum(total_compressed_size) / " + samples
                    + " FROM parquet_metadata(" + files + ") GROUP BY ALL ORDER BY 2 DESC")) {
                double total = 0;
                StringBuilder cols = new StringBuilder();
                while (rs.next()) {
                    total += rs.getDouble(2);
                    cols.append(String.format(Locale.ROOT, " %s %.3f", rs.getString(1), rs.getDouble(2)));
                }
                System.out.printf(Locale.ROOT, "bytes per sample: column chunks %.3f:%s%n", total, cols);
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*), sum(size) FROM (SELECT DISTINCT file_name,"
                    + " file_size_bytes AS size FROM parquet_file_metadata(" + files + "))")) {
                rs.next();
                System.out.printf(Locale.ROOT, "samples files %d, %.3f bytes per sample on disk%n", rs.getLong(1),
                        rs.getDouble(2) / samples);
            }
        }
    }

    /** The archiver's JVM: archives until caught up as the CLI does, then prints one RESULT line. */
    public static final class Child {

        private Child() {}

        public static void main(String[] args) throws IOException {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            ArchiveSummary s;
            Map<String, Long> threadCpuNs = new java.util.TreeMap<>();
            long javaThreadsNs = 0;
            try (Archiver archiver = new Archiver(ArchiverConfig.of(args[0], Path.of(args[1])))) {
                s = archiver.runUntilCaughtUp();
                // before close, while the archiver's threads still live
                var threads = ManagementFactory.getThreadMXBean();
                for (long id : threads.getAllThreadIds()) {
                    var info = threads.getThreadInfo(id);
                    long ns = threads.getThreadCpuTime(id);
                    if (info != null && ns > 0) {
                        String name = info.getThreadName().replaceAll("-\\d+$", "");
                        threadCpuNs.merge(name, ns, Long::sum);
                        javaThreadsNs += ns;
                    }
                }
            }
            long wallNs = System.nanoTime() - t0;
            long cpuNs = os.getProcessCpuTime() - cpu0;
            threadCpuNs.put("JVM (JIT, GC)", cpuNs - javaThreadsNs);
            long peakHeap = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peakHeap += pool.getPeakUsage().getUsed();
                }
            }
            String hwm = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("VmHWM:")).findFirst().orElse("VmHWM: ? kB")
                    .replaceAll("\\s+", " ").substring(7);
            long n = Math.max(1, s.samplesSeen());
            System.out.printf(Locale.ROOT, "RESULT samples %,d in %.2f s: %,.0f samples/s, CPU %.0f ns/sample"
                            + " (%.2f cores); peak heap %,d MB (sum of pool peaks), peak RSS %s; blocks consistent %s%n",
                    s.samplesSeen(), wallNs / 1e9, s.samplesSeen() / (wallNs / 1e9), (double) cpuNs / n,
                    (double) cpuNs / wallNs, peakHeap >> 20, hwm, s.blocksConsistent());
            StringBuilder split = new StringBuilder("CPU ns/sample by thread:");
            threadCpuNs.entrySet().stream().filter(e -> e.getValue() >= n * 5)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> split.append(String.format(Locale.ROOT, " %s %.0f;", e.getKey(),
                            (double) e.getValue() / n)));
            System.out.println(split);
        }
    }
}
