package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columns of version 2 of the aggregator's events in the windows, summary_events/summaries and
 * run_summary_events/run_summaries datasets: written and read back, null in rows of version-1 events, and archives
 * written before the columns existed still open (views union files by column name), alone or next to newer files,
 * also within one run.
 */
class AggregatorEventsV2DatasetTest {

    private static final String RUN = "v2-run";
    /** The columns version 2 added, by dataset: what an archiver before them did not write. */
    private static final Map<String, List<String>> ADDED = Map.of(
            "windows", List.of("event_version", "ok_queries", "errors_per_second", "p9999_us", "error_histogram",
                    "measured_count", "measured_errors", "measured_errors_by_class", "measured_queries",
                    "measured_ok_queries", "measured_histogram", "measured_error_histogram"),
            "summary_events", List.of("event_version", "ok_queries", "errors_per_second", "p9999_us",
                    "measured_seconds", "measure_start_us", "measure_end_us", "span_source", "complete",
                    "trend_windows", "error_mean_us", "error_p99_us", "error_max_us", "error_histogram"),
            "run_summary_events", List.of("event_version"));

    @TempDir
    Path archive;

    private static Histogram histogram(long... micros) {
        Histogram h = LatencyHistograms.create();
        for (long v : micros) {
            h.recordValue(v);
        }
        return h;
    }

    /** A mixed window (2 warm-up samples, 3 measured of which 1 failed), a wholly measured one, a version-1 one. */
    static List<WindowStats> windows(String runId) {
        WindowPart measured = WindowPart.of(3, 1, Map.of("deadlock", 1L), 7, 6, histogram(900, 1100), histogram(40));
        WindowStats mixed = WindowStats.of(runId, 1, "*", 1_000, 2_000, 5, 1, Map.of("deadlock", 1L), 11, 10,
                histogram(800, 900, 1000, 1100), histogram(40), 2, 0, measured);
        WindowStats whole = WindowStats.of(runId, 1, "*", 2_000, 3_000, 2, 0, Map.of(), 6, 6, histogram(700, 750),
                null, 0, 0, null);
        WindowStats v1 = WindowStats.ofVersion1(runId, 1, "*", 3_000, 4_000, histogram(600, 50), 1,
                Map.of("deadlock", 1L), 4, 0, 0);
        return List.of(mixed, whole, v1);
    }

    static StepSummary summaryV2(String runId, String op) {
        return new StepSummary(runId, 1, op, 1_500, 9_740, 4, 1, Map.of("deadlock", 1L), 13, 12 / 8.24, 3 / 8.24,
                1000.0, 901, 1101, 1101, 1101, 1101, 1101, 0, 0, null, null, false, 0, 0, "HIST", 10_000,
                2, 12, 1 / 8.24, 1101, 8.24, 1_500_250, 9_740_250, StepSummary.SPAN_PRODUCER, true,
                6, 40.0, 40, 40, "EHIST");
    }

    static StepSummary summaryV1(String runId, String op) {
        return new StepSummary(runId, 2, op, 11_000, 19_000, 10, 0, Map.of(), 20, 2.5, 1.25, 500.0, 400, 600, 700,
                800, 900, 1000, 0, 0, 1.5, 0.25, false, 0, 0, "HIST1", 20_000);
    }

    static List<SyntheticRun.Rec> records(String runId) {
        List<SyntheticRun.Rec> out = new ArrayList<>();
        for (WindowStats w : windows(runId)) {
            out.add(new SyntheticRun.Rec(Topics.WINDOWS, 0, utf8(w.scopeKey()), Json.write(w)));
        }
        for (StepSummary s : List.of(summaryV2(runId, "*"), summaryV1(runId, "*"))) {
            out.add(new SyntheticRun.Rec(Topics.SUMMARIES, 0, utf8(s.key()), Json.write(s)));
        }
        RunSummary run = new RunSummary(runId, List.of(), List.of(), List.of(), 5.0, 1, "default", 2, List.of(), true,
                30_000, RunSummary.VERSION);
        out.add(new SyntheticRun.Rec(Topics.RUN_SUMMARIES, 0, utf8(runId), Json.write(run)));
        return out;
    }

    /** A version-3 summary (the step's producers added) keeps every version-2 column. */
    @Test
    void version3Summary_keepsTheVersion2Columns() throws SQLException {
        String v3 = new String(Json.write(summaryV2(RUN, "*")), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"version\":2", "\"version\":3")
                .replaceFirst("}$", ",\"threads\":4,\"producers\":[{\"producerId\":\"a\",\"threads\":2,\"ended\":true,"
                        + "\"clientBound\":false},{\"producerId\":\"b\",\"threads\":2,\"ended\":true,"
                        + "\"clientBound\":false}],\"missingProducers\":[]}");
        TestArchives.write(archive, List.of(new SyntheticRun.Rec(Topics.SUMMARIES, 0, utf8(RUN + "/1/*"),
                v3.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(rows("SELECT event_version, ok_queries, measured_seconds, span_source, complete FROM summaries"))
                .containsExactly(row(3, 12L, 8.24, "producer", true));
    }

    @Test
    void version2Columns_writtenAndReadBack_nullInRowsOfVersion1Events() throws SQLException {
        TestArchives.write(archive, records(RUN));

        assertThat(rows("SELECT window_start_ms, event_version, count, qps, ok_queries, errors_per_second, p9999_us,"
                + " error_histogram IS NOT NULL, measured_count, measured_errors, measured_errors_by_class,"
                + " measured_queries, measured_ok_queries, measured_histogram IS NOT NULL,"
                + " measured_error_histogram IS NOT NULL FROM windows ORDER BY window_start_ms")).containsExactly(
                List.of(1_000L, 2, 5L, 10.0, 10L, 1.0, 1100L, true, 3L, 1L, "{\"deadlock\":1}", 7L, 6L, true, true),
                // wholly measured: the measured part is the window, its histograms are histogram/error_histogram
                row(2_000L, 2, 2L, 6.0, 6L, 0.0, 750L, false, 2L, 0L, "{}", 6L, 6L, false, false),
                row(3_000L, 1, 2L, 4.0, null, null, null, false, null, null, null, null, null, false, false));
        // the measured samples of the step are the sum of the windows' measured parts
        assertThat(rows("SELECT sum(measured_count)::BIGINT, sum(measured_ok_queries)::BIGINT FROM windows"
                + " WHERE event_version = 2")).containsExactly(List.of(5L, 12L));

        assertThat(rows("SELECT step_id, event_version, qps, ok_queries, errors_per_second, p9999_us,"
                + " measured_seconds, measure_start_us, measure_end_us, span_source, complete, trend_windows,"
                + " error_mean_us, error_p99_us, error_max_us, error_histogram, qps_slope_pct_per_hour, qps_cv"
                + " FROM summaries ORDER BY step_id")).containsExactly(
                row(1, 2, 12 / 8.24, 12L, 1 / 8.24, 1101L, 8.24, 1_500_250L, 9_740_250L, "producer", true, 6, 40.0,
                        40L, 40L, "EHIST", null, null),
                row(2, 1, 2.5, null, null, null, null, null, null, null, null, null, null, null, null, null, 1.5,
                        0.25));
        assertThat(rows("SELECT DISTINCT event_version FROM run_summaries")).containsExactly(List.of(2));
    }

    @Test
    void archiveWrittenBeforeTheColumns_opensAlone_andNextToNewerFiles() throws SQLException, IOException {
        TestArchives.write(archive, records("old-run"));
        downgrade("old-run");
        // alone: every view opens, without the columns no file has
        assertThat(rows("SELECT count(*) FROM windows")).containsExactly(List.of(3L));
        assertThat(rows("SELECT count(*) FROM summaries")).containsExactly(List.of(2L));
        assertThat(rows("SELECT count(*) FROM run_summaries")).containsExactly(List.of(1L));
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            assertThat(db.problems()).isEmpty();
        }

        // with a newer run: the old run's rows read null in the new columns
        TestArchives.write(archive, records(RUN));
        assertThat(rows("SELECT run_id, count(*), count(ok_queries) FROM windows GROUP BY run_id ORDER BY run_id"))
                .containsExactly(List.of("old-run", 3L, 0L), List.of(RUN, 3L, 2L));
        assertThat(rows("SELECT run_id, step_id, span_source, qps_slope_pct_per_hour FROM summaries"
                + " ORDER BY run_id, step_id")).containsExactly(
                row("old-run", 1, null, null), row("old-run", 2, null, 1.5),
                row(RUN, 1, "producer", null), row(RUN, 2, null, 1.5));
        assertThat(rows("SELECT run_id, event_version FROM run_summaries ORDER BY run_id")).containsExactly(
                row("old-run", null), row(RUN, 2));
    }

    @Test
    void runWithFilesOfBothArchivers_derivedSummariesUnionTheirColumns() throws SQLException, IOException {
        // an archiver before version 2 wrote the run's first summary; a newer one continues the run
        List<SyntheticRun.Rec> first = List.of(new SyntheticRun.Rec(Topics.SUMMARIES, 0,
                utf8(summaryV1(RUN, "*").key()), Json.write(summaryV1(RUN, "*"))));
        TestArchives.write(archive, first);
        downgrade(RUN);
        Path old = onlyFile(archive.resolve("summary_events/run_id=" + RUN));
        Files.move(old, old.resolveSibling("tailstream.summaries-p0-old.parquet"));
        TestArchives.write(archive, List.of(new SyntheticRun.Rec(Topics.SUMMARIES, 0,
                utf8(summaryV2(RUN, "*").key()), Json.write(summaryV2(RUN, "*")))));

        assertThat(rows("SELECT step_id, event_version, span_source, qps_cv FROM summaries ORDER BY step_id"))
                .containsExactly(row(1, 2, "producer", null), row(2, null, null, 0.25));
    }

    /** Rewrites a run's files of the three datasets without the columns version 2 added, as an older archiver did. */
    private void downgrade(String runId) throws SQLException, IOException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            // the derived datasets have their source's columns
            Map<String, String> sources = Map.of("windows", "windows", "summary_events", "summary_events",
                    "summaries", "summary_events", "run_summary_events", "run_summary_events",
                    "run_summaries", "run_summary_events");
            for (Map.Entry<String, String> e : sources.entrySet()) {
                String dataset = e.getKey();
                List<String> added = ADDED.get(e.getValue());
                Path dir = archive.resolve(dataset).resolve("run_id=" + runId);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                for (Path file : files(dir)) {
                    Path tmp = file.resolveSibling(file.getFileName() + ".old");
                    st.execute("COPY (SELECT * EXCLUDE (" + String.join(", ", added) + ") FROM read_parquet("
                            + ArchiveDatabase.sqlString(file.toString()) + ")) TO "
                            + ArchiveDatabase.sqlString(tmp.toString()) + " (FORMAT parquet)");
                    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
    }

    private static Path onlyFile(Path dir) throws IOException {
        List<Path> f = files(dir);
        assertThat(f).hasSize(1);
        return f.get(0);
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        return TestArchives.rows(archive, sql);
    }

    /** A row with nulls (List.of refuses them). */
    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
