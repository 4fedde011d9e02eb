package io.tailstream.reporter.history;

import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.benchmarks.CpuSnapshot;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark of {@code trend} over a large history (not a unit test; figures in docs/benchmarks.md): RUNS runs of 10
 * steps each (oltp_read_write on one target at 2, 4, ... 20 threads), SAMPLES samples per step, written with DuckDB in
 * the archive's layout unless the archive exists; from the middle run on, the server variable
 * {@code innodb_flush_log_at_trx_commit} is 2 instead of 1 and latencies are 10% lower. Times {@link TrendQuery}
 * (every series, QPS then P99, default change-point settings) in a fresh {@link ArchiveDatabase} per iteration, as
 * the CLI does per invocation (JVM start excluded), and prints the change points found.
 *
 * <pre>
 * ./mvnw -q -o -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.reporter.history.TrendBenchmarkMain /tmp/trend-archive \
 *   [runs, 1000 [samples per step, 1000 [iterations, 5]]]
 * </pre>
 */
public final class TrendBenchmarkMain {

    private static final long T0_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private TrendBenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        Path archive = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int perStep = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        int iterations = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        if (!Files.isDirectory(archive.resolve("runs"))) {
            long t0 = System.nanoTime();
            write(archive, runs, perStep);
            System.out.printf(Locale.ROOT, "wrote %d runs x 10 steps x %,d samples in %.1f s%n", runs, perStep,
                    (System.nanoTime() - t0) / 1e9);
        }
        ChangePointDetector detector = new ChangePointDetector(ChangePointSettings.DEFAULTS);
        for (Metric metric : List.of(Metric.QPS, Metric.P99)) {
            long[] wallMs = new long[iterations + 1];
            long[] cpuMs = new long[iterations + 1];
            List<Series> series = List.of();
            for (int i = 0; i <= iterations; i++) {
                CpuSnapshot from = CpuSnapshot.take();
                try (ArchiveDatabase db = ArchiveDatabase.open(archive, TrendQuery.DATASETS)) {
                    series = TrendQuery.of(db, TrendFilter.ALL, metric, detector);
                }
                CpuSnapshot to = CpuSnapshot.take();
                wallMs[i] = Math.round(to.secondsSince(from) * 1000);
                cpuMs[i] = to.processCpuSince(from) / 1_000_000;
            }
            long[] measured = Arrays.copyOfRange(wallMs, 1, wallMs.length);
            Arrays.sort(measured);
            long[] cpu = Arrays.copyOfRange(cpuMs, 1, cpuMs.length);
            Arrays.sort(cpu);
            System.out.printf(Locale.ROOT, "trend --metric %s over %d series of %d runs: p50 %d ms, max %d ms"
                            + " (first, cold: %d ms); CPU p50 %d ms; load average %s%n", metric.id(), series.size(),
                    series.isEmpty() ? 0 : series.get(0).points().size(), measured[measured.length / 2],
                    measured[measured.length - 1], wallMs[0], cpu[cpu.length / 2], loadAverage());
            for (Series s : series) {
                System.out.printf(Locale.ROOT, "  %s: %s%n", s.key().label(), s.changes().stream()
                        .map(c -> c.firstRunAfter() + " " + String.format(Locale.ROOT, "%+.1f%%",
                                c.change().estimatePct()) + " " + c.differences()).toList());
            }
        }
    }

    private static String loadAverage() throws java.io.IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    private static void write(Path archive, int runs, int perStep) throws Exception {
        String dir = archive.toAbsolutePath().toString();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (int r = 0; r < runs; r++) {
                String run = String.format(Locale.ROOT, "run-%05d", r);
                for (String d : new String[] {"samples", "steps", "runs"}) {
                    Files.createDirectories(archive.resolve(d).resolve("run_id=" + run));
                }
                boolean after = r >= runs / 2;
                long startMs = T0_MS + r * 3_600_000L;
                // per step: perStep samples, one every ms, latency 100..1000 us (10% lower after the change), a
                // run-specific jitter of the spacing so QPS varies from run to run
                double spacing = 1000 * (after ? 0.9 : 1.0) * (1 + ((r * 7919) % 97 - 48) / 2000.0);
                st.execute("COPY (SELECT CAST(1 + i // " + perStep + " AS INTEGER) AS step_id, 'p1' AS producer_id,"
                        + " CAST(i // 100 AS BIGINT) AS block_seq, 'read_write' AS op,"
                        + " CAST(" + startMs * 1000 + " + i * " + spacing + " AS BIGINT) AS start_us,"
                        + " CAST((100 + (i * 7919) % 900) * " + (after ? 0.9 : 1.0) + " AS BIGINT) AS latency_us,"
                        + " CAST(NULL AS BIGINT) AS intended_start_us, 'ok' AS status, 20 AS queries,"
                        + " false AS warmup FROM range(" + (10L * perStep) + ") t(i)) TO '" + dir + "/samples/run_id="
                        + run + "/samples.parquet' (FORMAT parquet, COMPRESSION zstd)");
                st.execute("COPY (SELECT CAST(s AS INTEGER) AS step_id, 'mariadb' AS target, 'MariaDB' AS product,"
                        + " '10.11.19' AS version, 'jdbc:mariadb://db:3306/sbtest' AS url,"
                        + " 'oltp_read_write' AS workload, '{\"tables\":\"8\"}' AS options,"
                        + " CAST(s * 2 AS INTEGER) AS threads, 1 AS round,"
                        + " '{\"innodb_flush_log_at_trx_commit\":\"" + (after ? 2 : 1) + "\"}' AS target_variables,"
                        + " CAST(0 AS BIGINT) AS warmup_ms, CAST(" + perStep + " AS BIGINT) AS measure_ms,"
                        + " 'completed' AS outcome FROM range(1, 11) t(s)) TO '" + dir + "/steps/run_id=" + run
                        + "/steps.parquet' (FORMAT parquet)");
                st.execute("COPY (SELECT 'nightly' AS plan_name, CAST(" + startMs + " AS BIGINT) AS started_at_ms,"
                        + " CAST(" + (startMs + 600_000) + " AS BIGINT) AS ended_at_ms, 'completed' AS outcome,"
                        + " CAST(" + 10L * perStep + " AS BIGINT) AS samples_sent, '{\"host\":\"gen-1\"}' AS client,"
                        + " '{}' AS settings) TO '" + dir + "/runs/run_id=" + run + "/runs.parquet' (FORMAT parquet)");
            }
        }
    }
}
