package io.tailstream.reporter.query;

import io.tailstream.benchmarks.CpuSnapshot;
import io.tailstream.reporter.archive.ArchiveWriter;
import io.tailstream.schemas.Topics;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Benchmark of {@code query}, {@code runs} and {@code compare} latency over a large synthetic archive (not a unit
 * test; figures in docs/benchmarks.md). Writes the archive through the real {@link ArchiveWriter} (blocks
 * encoded, decoded, ZSTD Parquet) unless it exists, then times each query in a fresh {@link ArchiveDatabase} per
 * iteration, as the CLI does per invocation (JVM start excluded).
 *
 * <pre>
 * ./mvnw -q -o -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar \
 *   io.tailstream.reporter.query.QueryBenchmarkMain /tmp/bench-archive 100000000 [iterations [writer|duckdb
 *   [query name prefix]]]
 * </pre>
 *
 * Shape: 10 runs of one producer each; per run 4 closed-loop steps (targets mysql and postgres x 8 and 32
 * threads, oltp_read_write, 20 queries a transaction), samples split evenly, 10 % of each step warm-up,
 * log-normal latencies around 1 ms, 0.5 % deadlocks, 8 workers interleaving blocks of 1,024 samples.
 */
public final class QueryBenchmarkMain {

    static final int RUNS = 10;
    private static final long T0_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private QueryBenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        Path archive = Path.of(args[0]);
        long samples = Long.parseLong(args[1]);
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        boolean duckdb = args.length > 3 && args[3].equals("duckdb");
        if (!Files.isDirectory(archive.resolve("samples"))) {
            long t0 = System.nanoTime();
            if (duckdb) {
                generateWithDuckDb(archive, samples);
            } else {
                generate(archive, samples);
            }
            System.out.printf(Locale.ROOT, "generated %,d samples in %.1f s%n", samples,
                    (System.nanoTime() - t0) / 1e9);
        }
        runQueries(archive, iterations, args.length > 4 ? args[4] : "");
    }

    /**
     * Times every query (those whose name starts with {@code only}) over an archive of this benchmark's shape: one
     * warm-up, then {@code iterations} runs, each in a fresh {@link ArchiveDatabase}.
     */
    static void runQueries(Path archive, int iterations, String only) throws IOException, SQLException {
        System.out.printf(Locale.ROOT, "archive: %,d bytes, samples dataset %,d bytes%n", size(archive),
                size(archive.resolve("samples")));
        String run3 = runId(3);
        long mid = (T0_MS + 3L * 86_400_000L + 60_000) * 1000;
        Map<String, String> queries = new java.util.LinkedHashMap<>();
        queries.put("count(*) over all samples", "SELECT count(*) FROM samples");
        queries.put("P99 of one step of one run", "SELECT quantile_disc(latency_us, 0.99) FROM samples"
                + " WHERE run_id = '" + run3 + "' AND step_id = 2 AND NOT warmup");
        queries.put("10 s time range, count and mean", "SELECT count(*), avg(latency_us) FROM samples"
                + " WHERE start_us BETWEEN " + mid + " AND " + (mid + 10_000_000L));
        queries.put("per-second QPS of one step", "SELECT (start_us + latency_us) // 1000000 AS s, sum(queries)"
                + " FROM samples WHERE run_id = '" + run3 + "' AND step_id = 1 GROUP BY s ORDER BY s");
        queries.put("P99 of one step, counted per latency", countedP99("run_id = '" + run3
                + "' AND step_id = 2 AND NOT warmup"));
        queries.put("P99 per run and step over all samples", "SELECT run_id, step_id, count(*),"
                + " quantile_disc(latency_us, 0.99) FROM samples WHERE NOT warmup GROUP BY ALL");
        queries.put("P99 per run and step, counted per latency", countedP99("NOT warmup"));
        queries.put("runs (RunCatalog)", null);
        queries.put("compare two runs (RunComparison)", null);
        System.out.printf("%-40s %8s %8s %8s %8s %8s   (ms, %d iterations, 1 warm-up; open = ArchiveDatabase.open;"
                + " cpu = the process's CPU time, all threads, p50)%n", "query", "open", "p50", "p99", "max", "cpu",
                iterations);
        for (Map.Entry<String, String> q : queries.entrySet()) {
            if (!q.getKey().startsWith(only)) {
                continue;
            }
            time(archive, q.getKey(), q.getValue(), iterations);
        }
        String sorted = "P99 per run and step over all samples";
        String counted = "P99 per run and step, counted per latency";
        if (sorted.startsWith(only) && counted.startsWith(only)) {
            sameRows(archive, queries.get(sorted), queries.get(counted));
        }
    }

    /**
     * The nearest-rank P99 per run and step from counts per latency value (docs/queries.md): a hash aggregation into
     * one row per distinct latency, then cumulative counts; the P99 is the smallest latency whose cumulative count
     * reaches {@code ceil(0.99 n)}, compared in integers.
     */
    static String countedP99(String where) {
        return """
                SELECT run_id, step_id, any_value(total) AS n,
                       min(latency_us) FILTER (WHERE upto * 100 >= total * 99) AS p99_us
                FROM (SELECT run_id, step_id, latency_us,
                             sum(n) OVER (PARTITION BY run_id, step_id ORDER BY latency_us
                                          ROWS UNBOUNDED PRECEDING) AS upto,
                             sum(n) OVER (PARTITION BY run_id, step_id) AS total
                      FROM (SELECT run_id, step_id, latency_us, count(*) AS n FROM samples WHERE %s GROUP BY ALL))
                GROUP BY run_id, step_id""".formatted(where);
    }

    /** Fails unless both queries give the same rows (in any order): the counted P99 is the exact one. */
    private static void sameRows(Path archive, String a, String b) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            List<String> left = rows(db, a);
            List<String> right = rows(db, b);
            if (!left.equals(right)) {
                throw new IllegalStateException("the counted P99 differs from quantile_disc:\n" + left + "\n" + right);
            }
            System.out.printf(Locale.ROOT, "counted P99 per run and step = quantile_disc's: %d rows, equal%n",
                    left.size());
        }
    }

    private static List<String> rows(ArchiveDatabase db, String sql) throws SQLException {
        List<String> out = new java.util.ArrayList<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "/" + rs.getInt(2) + ": n=" + rs.getLong(3) + " p99=" + rs.getLong(4));
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    private static void time(Path archive, String name, String sql, int iterations) throws SQLException {
        long[] totals = new long[iterations];
        long[] opens = new long[iterations];
        long[] cpus = new long[iterations];
        for (int i = -1; i < iterations; i++) {
            long cpu0 = CpuSnapshot.processCpuNanos();
            long t0 = System.nanoTime();
            try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
                long t1 = System.nanoTime();
                if (sql != null) {
                    try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
                        while (rs.next()) {
                            rs.getObject(1);
                        }
                    }
                } else if (name.startsWith("runs")) {
                    RunCatalog.list(db, RunFilter.ALL);
                } else {
                    RunComparison.compare(db, runId(1), runId(2), 5);
                }
                if (i >= 0) {
                    opens[i] = t1 - t0;
                    totals[i] = System.nanoTime() - t0;
                    cpus[i] = CpuSnapshot.processCpuNanos() - cpu0;
                }
            }
        }
        Arrays.sort(totals);
        Arrays.sort(opens);
        Arrays.sort(cpus);
        System.out.printf(Locale.ROOT, "%-40s %8.1f %8.1f %8.1f %8.1f %8.1f%n", name, rank(opens, 0.5) / 1e6,
                rank(totals, 0.5) / 1e6, rank(totals, 0.99) / 1e6, totals[totals.length - 1] / 1e6,
                rank(cpus, 0.5) / 1e6);
    }

    private static long rank(long[] sorted, double p) {
        return sorted[Math.max(1, (int) Math.ceil(p * sorted.length)) - 1];
    }

    static String runId(int i) {
        return String.format("bench-%02d", i);
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /**
     * Writes the same shape directly with DuckDB's Parquet writer (ZSTD, rows sorted by start, 1 M-row files and
     * row groups, the archive's layout and the samples/steps/runs columns the queries use): for sizes the
     * archiver's writer would take too long to produce on a shared machine. No blocks or control datasets.
     */
    static void generateWithDuckDb(Path archive, long total) throws SQLException, IOException {
        long perRun = total / RUNS;
        long perStep = perRun / 4;
        long perFile = 1_000_000;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             Statement st = c.createStatement()) {
            for (int r = 0; r < RUNS; r++) {
                String run = runId(r);
                long runStartMs = T0_MS + r * 86_400_000L;
                for (String d : List.of("samples", "steps", "runs")) {
                    Files.createDirectories(archive.resolve(d).resolve("run_id=" + run));
                }
                String dir = archive.toAbsolutePath().toString();
                for (long from = 0; from < perRun; from += perFile) {
                    long to = Math.min(perRun, from + perFile);
                    st.execute(String.format(Locale.ROOT, """
                            COPY (SELECT CAST(1 + i // %3$d AS INTEGER) AS step_id, 'bench-producer' AS producer_id,
                                   CAST(i // 1024 AS BIGINT) AS block_seq, 'txn' AS op,
                                   CAST(%4$d * 1000 + (i // %3$d) * 1000000 + i * 50 AS BIGINT) AS start_us,
                                   CAST(150 + exp(0.6 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) + 6.7)
                                        / (CASE WHEN (i // %3$d) %% 2 = 1 THEN 1.6 ELSE 1.0 END) AS BIGINT) AS latency_us,
                                   CAST(NULL AS BIGINT) AS intended_start_us,
                                   CASE WHEN random() < 0.005 THEN 'deadlock' ELSE 'ok' END AS status,
                                   CAST(20 AS INTEGER) AS queries, i %% %3$d < %3$d / 10 AS warmup
                                   FROM range(%1$d, %2$d) t(i) ORDER BY start_us)
                            TO '%5$s/samples/run_id=%6$s/tailstream.samples-p0-%1$019d-%7$019d.parquet'
                            (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1000000)""",
                            from, to, perStep, runStartMs, dir, run, to - 1));
                }
                st.execute(String.format(Locale.ROOT, """
                        COPY (SELECT CAST(s AS INTEGER) AS step_id, CASE WHEN s <= 2 THEN 'mysql' ELSE 'postgres' END
                               AS target, 'oltp_read_write' AS workload, CASE WHEN s %% 2 = 1 THEN 8 ELSE 32 END
                               AS threads, 1 AS round FROM range(1, 5) t(s))
                        TO '%s/steps/run_id=%s/steps.parquet' (FORMAT parquet, COMPRESSION zstd)""", dir, run));
                st.execute(String.format(Locale.ROOT, """
                        COPY (SELECT 'bench-plan' AS plan_name, CAST(%d AS BIGINT) AS started_at_ms,
                               CAST(%d AS BIGINT) AS ended_at_ms, 'completed' AS outcome, CAST(%d AS BIGINT) AS samples_sent)
                        TO '%s/runs/run_id=%s/runs.parquet' (FORMAT parquet, COMPRESSION zstd)""",
                        runStartMs, runStartMs + 4 * (perStep * 50 / 1000 + 1000), perRun, dir, run));
                System.out.printf(Locale.ROOT, "run %s written%n", run);
            }
        }
    }

    /** Writes the archive through the archiver's writer, records numbered per partition as Kafka would. */
    static void generate(Path archive, long total) {
        Map<TopicPartition, Long> next = new HashMap<>();
        try (ArchiveWriter w = new ArchiveWriter(archive, 1_000_000, offsets -> { })) {
            generateRecords(total, (topic, value) -> {
                TopicPartition tp = new TopicPartition(topic, 0);
                long offset = next.computeIfAbsent(tp, k -> {
                    w.addPartition(k, 0);
                    return 0L;
                });
                w.accept(new ConsumerRecord<>(topic, 0, offset, null, value));
                next.put(tp, offset + 1);
            }, run -> w.flushAll());
        }
    }

    /**
     * The benchmark's records as producers would send them: per run, control events and sample blocks (each worker's
     * blocks of 1,024 samples, end-of-step markers), in the order a producer sends them.
     *
     * @param send     receives each record's topic and value
     * @param runEnded called after each run's last record
     */
    static void generateRecords(long total, java.util.function.BiConsumer<String, byte[]> send,
                                java.util.function.Consumer<String> runEnded) {
        Random rnd = new Random(1);
        long perStep = total / RUNS / 4;
        {
            for (int r = 0; r < RUNS; r++) {
                String run = runId(r);
                String producer = "bench-producer";
                long runStart = T0_MS + r * 86_400_000L;
                List<TargetInfo> targets = List.of(
                        new TargetInfo("mysql", "jdbc:mysql://db1/sbtest", "MySQL", "8.4.3", Map.of(), 900.0, "USD", 1, null),
                        new TargetInfo("postgres", "jdbc:postgresql://db2/sbtest", "PostgreSQL", "17.2", Map.of(), 800.0,
                                "USD", 1, null));
                List<ControlEvent> control = new ArrayList<>();
                control.add(new RunStarted(run, runStart, producer, "bench-plan", targets, Map.of(), RunSettings.NONE));
                control.forEach(e -> send.accept(Topics.CONTROL, Json.write(e)));
                long seq = 0;
                long stepStartMs = runStart;
                int stepId = 0;
                for (TargetInfo target : targets) {
                    for (int threads : new int[] {8, 32}) {
                        stepId++;
                        double speed = (target.name().equals("mysql") ? 1.0 : 0.9) * (threads == 8 ? 1.0 : 1.6);
                        long gapNs = (long) (1_000_000_000L / (20_000 * speed)); // ~20k TPS at 8 threads
                        long durationMs = perStep * gapNs / 1_000_000 + 1;
                        long warmupMs = durationMs / 10;
                        send.accept(Topics.CONTROL, Json.write(new StepStarted(run, stepStartMs, producer, stepId,
                                target, "oltp_read_write", threads, 1, warmupMs, durationMs - warmupMs,
                                List.of("txn"), 20, Map.of("tables", "8"))));
                        SampleBlockEncoder[] workers = new SampleBlockEncoder[8];
                        for (int k = 0; k < workers.length; k++) {
                            workers[k] = new SampleBlockEncoder(1024, false);
                        }
                        long startNs = stepStartMs * 1_000_000L;
                        long errors = 0;
                        long blocksAtStart = seq;
                        for (long i = 0; i < perStep; i++) {
                            startNs += gapNs;
                            long startUs = startNs / 1000;
                            long latency = 150 + (long) (Math.exp(rnd.nextGaussian() * 0.6 + 6.7) / speed);
                            SampleStatus status = rnd.nextInt(200) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                            errors += status.isError() ? 1 : 0;
                            boolean warmup = startUs < (stepStartMs + warmupMs) * 1000;
                            SampleBlockEncoder enc = workers[(int) (i % workers.length)];
                            enc.add(startUs, latency, startUs, 0, status, 20, warmup);
                            if (enc.isFull() || i >= perStep - workers.length) {
                                send.accept(Topics.SAMPLES, enc.seal(run, producer, seq++, stepId, startUs + latency,
                                        List.of("txn"), 0));
                                enc.reset();
                            }
                        }
                        send.accept(Topics.SAMPLES, SampleBlockEncoder.marker(run, producer, seq++, stepId,
                                io.tailstream.schemas.block.SampleBlock.FLAG_END_OF_STEP, startNs / 1000, List.of("txn")));
                        send.accept(Topics.CONTROL, Json.write(new StepEnded(run, stepStartMs + durationMs, producer,
                                stepId, perStep, seq - blocksAtStart, errors, "completed")));
                        stepStartMs += durationMs + 1000;
                    }
                }
                send.accept(Topics.CONTROL, Json.write(new RunEnded(run, stepStartMs, producer, seq, perStep * 4,
                        "completed")));
                runEnded.accept(run);
                System.out.printf(Locale.ROOT, "run %s written%n", run);
            }
        }
    }
}
