package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.archive.ArchiveVerifier;
import io.tailstream.reporter.archive.BlockCheck;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream demo} end to end, through a real Kafka broker, the Kafka Streams aggregator and the
 * Parquet archiver, then every figure checked against the raw samples in the archive.
 */
class DemoPipelineIntegrationTest {

    @TempDir
    static Path out;

    static String console;
    static int exitCode;

    @BeforeAll
    static void runDemo() {
        try (ConsoleCapture captured = ConsoleCapture.stdout()) {
            exitCode = Cli.commandLine().execute("demo", "--duration", "2s", "--out", out.toString());
            console = captured.text();
        }
        System.out.println(console);
    }

    @Test
    void demo_exitsZeroAndSaysWhereTheResultsAre() {
        assertThat(exitCode).as(console).isZero();
        assertThat(console).contains("report:  " + out.resolve("report.html"))
                .contains("archive: " + out.resolve("archive"))
                .containsPattern("samples: [\\d,]+ sent = [\\d,]+ aggregated = [\\d,]+ archived");
        assertThat(out.resolve("report.html")).isRegularFile();
        assertThat(out.resolve("archive/samples")).isDirectory();
        assertThat(out.resolve("archive/windows")).isDirectory();
    }

    @Test
    void samplesSent_equalWindowCounts_equalArchivedRows() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
            long sent = single(db, "SELECT sum(samples_sent) FROM steps");
            long archived = single(db, "SELECT count(*) FROM samples");
            long aggregated = single(db, "SELECT sum(count) FROM windows WHERE op = '*'");
            long perOp = single(db, "SELECT sum(count) FROM windows WHERE op <> '*'");
            assertThat(sent).isPositive();
            assertThat(archived).isEqualTo(sent);
            assertThat(aggregated).isEqualTo(sent);
            assertThat(perOp).isEqualTo(sent);
            assertThat(single(db, "SELECT count(*) FROM steps")).isEqualTo(8);
            assertThat(single(db, "SELECT count(DISTINCT target) FROM steps")).isEqualTo(2);
        }
    }

    @Test
    void everyBlockSequence_isArchivedExactlyOnce() throws SQLException {
        List<BlockCheck> checks = ArchiveVerifier.checkBlocks(out.resolve("archive"), List.of());
        assertThat(checks).isNotEmpty().allMatch(BlockCheck::ok);
    }

    @Test
    void everyWindow_countsExactlyTheSamplesThatCompletedInIt() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
            long mismatches = single(db, """
                    WITH raw AS (
                      SELECT step_id, (start_us + latency_us) // 1000000 * 1000 AS window_start_ms, count(*) AS n
                      FROM samples GROUP BY ALL)
                    SELECT count(*) FROM raw FULL OUTER JOIN (
                      -- a window's samples: its record plus any late corrections (late_count = count)
                      SELECT step_id, window_start_ms, sum(count) AS count FROM windows WHERE op = '*'
                      GROUP BY ALL) w
                      USING (step_id, window_start_ms)
                    WHERE coalesce(raw.n, 0) <> coalesce(w.count, 0)""");
            assertThat(mismatches).isZero();
        }
    }

    @Test
    void windowPercentiles_matchAnExactNearestRankComputationWithinHdrHistogramPrecision() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"));
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("""
                     WITH ranked AS (
                       SELECT step_id, (start_us + latency_us) // 1000000 * 1000 AS window_start_ms, latency_us,
                              row_number() OVER (PARTITION BY step_id, (start_us + latency_us) // 1000000
                                                 ORDER BY latency_us) AS rn,
                              count(*) OVER (PARTITION BY step_id, (start_us + latency_us) // 1000000) AS n
                       -- a window's latency figures describe its successful transactions (failed ones apart)
                       FROM samples WHERE status = 'ok'),
                     exact AS (
                       SELECT step_id, window_start_ms,
                              max(latency_us) FILTER (WHERE rn = ceil(0.50 * n)) AS p50,
                              max(latency_us) FILTER (WHERE rn = ceil(0.95 * n)) AS p95,
                              max(latency_us) FILTER (WHERE rn = ceil(0.99 * n)) AS p99,
                              max(latency_us) AS mx
                       FROM ranked GROUP BY ALL)
                     SELECT e.*, w.p50_us, w.p95_us, w.p99_us, w.max_us
                     FROM exact e JOIN windows w USING (step_id, window_start_ms) WHERE w.op = '*'
                       -- a window with late corrections has its samples split over several records
                       AND NOT EXISTS (SELECT 1 FROM windows c WHERE c.step_id = e.step_id
                         AND c.window_start_ms = e.window_start_ms AND c.late_count > 0)""")) {
            int windows = 0;
            while (rs.next()) {
                windows++;
                for (String p : new String[] {"p50", "p95", "p99"}) {
                    long exact = rs.getLong(p);
                    assertThat(rs.getLong(p + "_us")).as("%s of step %d window %d", p, rs.getInt("step_id"),
                            rs.getLong("window_start_ms")).isCloseTo(exact, within(exact / 1000 + 1));
                }
                long max = rs.getLong("mx");
                assertThat(rs.getLong("max_us")).isCloseTo(max, within(max / 1000 + 1));
            }
            assertThat(windows).isGreaterThan(8);
        }
    }

    @Test
    void queriesPerTransaction_isTheWorkloadsDefinition() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
            // every error-free window: queries = count x queries-per-transaction exactly, so QPS/TPS = 20 or 1
            long wrong = single(db, """
                    SELECT count(*) FROM windows w JOIN steps s USING (step_id)
                    WHERE w.op = '*' AND w.count > 0 AND w.errors = 0 AND w.queries <> w.count * s.queries_per_txn""");
            assertThat(wrong).isZero();
            assertThat(single(db, "SELECT min(queries_per_txn) FROM steps WHERE workload = 'oltp_read_write'"))
                    .isEqualTo(20);
            assertThat(single(db, "SELECT max(queries_per_txn) FROM steps WHERE workload = 'oltp_point_select'"))
                    .isEqualTo(1);
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("""
                         SELECT s.workload, sum(w.qps) / sum(w.tps) AS ratio FROM windows w JOIN steps s USING (step_id)
                         WHERE w.op = '*' AND w.errors = 0 GROUP BY s.workload""")) {
                while (rs.next()) {
                    double expected = rs.getString(1).equals("oltp_read_write") ? 20 : 1;
                    assertThat(rs.getDouble(2)).isCloseTo(expected, within(1e-9));
                }
            }
        }
    }

    @Test
    void report_isSelfContainedAndNamesBothTargets() throws Exception {
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("h2-mem").contains("h2-file-sync").contains("oltp_read_write")
                .doesNotContainPattern("(src|href)=\"https?://");
    }

    private static long single(ArchiveDatabase db, String sql) throws SQLException {
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
