package io.tailstream.reporter.archive;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.benchmarks.CpuSnapshot;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark of {@code tailstream archive --until-caught-up} over a backlog (not a unit test; figures in
 * docs/benchmarks.md). Starts the in-process broker, fills its samples topic with N samples (a {@link
 * SampleBacklog}: blocks of 1,024 from the producer's encoder, sent as the producer sends them), then archives the
 * backlog in a child JVM exactly as the CLI does ({@link Archiver} with the default {@link ArchiverConfig}) and
 * reports the child's samples/s, CPU per sample (the whole process, JIT and GC included, and per thread), peak heap
 * and peak RSS, and the written Parquet's bytes per sample by column. The broker runs in this JVM, so its CPU is not
 * in the child's figures. Then the aggregator (its defaults, exactly once) aggregates the same backlog in this JVM,
 * and the benchmark prints the two rates' ratio.
 *
 * <pre>
 * ./mvnw -q -o -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar \
 *   io.tailstream.reporter.archive.ArchiveBenchmarkMain 30000000 [child -Xmx, 512m unless given; "default": the
 *   JVM's] [child JVM options...]
 * </pre>
 * Child JVM options {@code -Dtailstream.bench.rowGroupRows=N} and {@code -Dtailstream.bench.rollRows=N} set {@link
 * ArchiverConfig#rowGroupRows()} and {@link ArchiverConfig#rollRows()};
 * {@code -Dtailstream.bench.aggregate=false} (on this JVM) skips the aggregator.
 */
public final class ArchiveBenchmarkMain {

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
            SampleBacklog.Sent sent = SampleBacklog.produce(kafka.bootstrapServers(), samples, 1);
            System.out.printf(Locale.ROOT, "produced %,d samples in %,d blocks in %.1f s%n", samples,
                    sent.sampleBlocks(), (System.nanoTime() - t0) / 1e9);
            double archiverRate = runChild(kafka.bootstrapServers(), archive, heap, jvmOptions);
            if (Boolean.parseBoolean(System.getProperty("tailstream.bench.aggregate", "true"))) {
                double aggregatorRate = aggregate(kafka.bootstrapServers(), samples, dir.resolve("aggregator"));
                System.out.printf(Locale.ROOT, "ratio archiver / aggregator (same samples, same run, start-up"
                        + " included): %.2f%n", archiverRate / aggregatorRate);
            }
        }
        report(archive, samples);
    }

    /**
     * Aggregates the same backlog with the aggregator's defaults ({@code exactly_once_v2}) in this JVM, beside the
     * broker, until every sample is counted in committed windows; prints the rate with start-up and from the first
     * committed window, and returns the former (the archiver's figure includes its start-up too).
     */
    static double aggregate(String bootstrap, long samples, Path state) throws IOException {
        Files.createDirectories(state);
        long started = System.nanoTime();
        long firstAt = 0;
        long firstCount = 0;
        long counted = 0;
        try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults()
                .withApplicationId("archive-bench-aggregator"), state);
             AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
            while (counted < samples) {
                if (System.nanoTime() - started > Duration.ofMinutes(30).toNanos()) {
                    throw new IllegalStateException("the aggregator counted " + counted + " of " + samples
                            + " samples in 30 min");
                }
                progress.poll(Duration.ofMillis(50));
                counted = progress.countedSamples(SampleBacklog.RUN);
                if (firstAt == 0 && counted > 0) {
                    firstAt = System.nanoTime();
                    firstCount = counted;
                }
            }
        }
        long doneAt = System.nanoTime();
        double withStartUp = samples / ((doneAt - started) / 1e9);
        System.out.printf(Locale.ROOT, "aggregator: %,d samples in %.2f s, start-up included: %,.0f samples/s;"
                        + " from the first committed window: %,.0f samples/s%n", samples, (doneAt - started) / 1e9,
                withStartUp, (samples - firstCount) / ((doneAt - firstAt) / 1e9));
        return withStartUp;
    }

    /**
     * Runs the archiver's JVM to the end and echoes its output (which ends with its RESULT line).
     *
     * @return the archiver's samples/s (from its consumer's start to caught up)
     */
    public static double runChild(String bootstrap, Path archive, String heap, List<String> jvmOptions)
            throws IOException, InterruptedException {
        ChildJvm jvm = ChildJvm.of(Child.class);
        if (!heap.equals("default")) {
            jvm = jvm.heap(heap);
        }
        jvm = jvm.jvmOptions("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.tailstream=info").jvmOptions(jvmOptions)
                .args(bootstrap, archive.toString());
        Path out = Files.createTempFile("archive-bench-child", ".log");
        Process child = jvm.start(out);
        int rc = child.waitFor();
        String log = Files.readString(out);
        System.out.print(log);
        Files.delete(out);
        String result = log.lines().filter(l -> l.startsWith("RESULT")).findFirst().orElse(null);
        if (rc != 0 || result == null) {
            throw new IllegalStateException("the archiver child exited with " + rc + " without a RESULT line");
        }
        return Double.parseDouble(result.replaceAll(".*: ([0-9,]+) samples/s.*", "$1").replace(",", ""));
    }

    /** Bytes per sample by column of the samples dataset, and a check that every sample is there once. */
    public static void report(Path archive, long samples) throws Exception {
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
            CpuSnapshot start = CpuSnapshot.take();
            long t0 = System.nanoTime();
            ArchiveSummary s;
            CpuSnapshot beforeClose;
            ArchiverConfig config = ArchiverConfig.of(args[0], Path.of(args[1]));
            String rowGroupRows = System.getProperty("tailstream.bench.rowGroupRows");
            if (rowGroupRows != null) {
                config = config.withRowGroupRows(Integer.parseInt(rowGroupRows));
            }
            String rollRows = System.getProperty("tailstream.bench.rollRows");
            if (rollRows != null) {
                config = config.withRollRows(Integer.parseInt(rollRows));
            }
            try (Archiver archiver = new Archiver(config)) {
                s = archiver.runUntilCaughtUp();
                beforeClose = CpuSnapshot.take(); // while the archiver's threads still live
            }
            long wallNs = System.nanoTime() - t0;
            CpuSnapshot end = CpuSnapshot.take();
            long cpuNs = end.processCpuSince(start);
            // by thread name less its number; CPU spent closing (threads ending) counts as the JVM's
            Map<String, Long> threadCpuNs = beforeClose.threadCpuByRoleSince(start,
                    name -> name.replaceAll("-\\d+$", ""));
            threadCpuNs.put("JVM (JIT, GC)", beforeClose.jvmCpuSince(start) + end.processCpuSince(beforeClose));
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
