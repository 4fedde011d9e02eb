package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run_summary_events and run_summaries datasets: every record flattened, the last record's rows derived. */
class RunSummaryDatasetTest {

    private static final String RUN = "rs-1";

    @TempDir
    Path archive;

    /** The run summary published at RunEnded (step 2 still pending) and the complete one after it. */
    static List<RunSummary> summaries() {
        RunSummary.RoundStats early = new RunSummary.RoundStats("maria-1", "oltp_read_write", 8, "*", 1, List.of(1),
                fig(100, null, 100, 100), fig(50, null, 50, 50), fig(900, null, 900, 900), fig(1500, null, 1500, 1500),
                fig(2000, null, 2000, 2000), 100, 50);
        RunSummary first = new RunSummary(RUN, List.of(early), List.of(), List.of(), 5.0, 1, "default", 1, List.of(2),
                false, 10_000);
        RunSummary.RoundStats all = new RunSummary.RoundStats("maria-1", "oltp_read_write", 8, "*", 2, List.of(1, 2),
                fig(110, 14.142135623730951, 100, 120), fig(55, 7.0710678118654755, 50, 60), fig(950, 70.7, 900, 1000),
                fig(1550, 70.7, 1500, 1600), fig(2100, 141.4, 2000, 2200), 110, 55);
        RunSummary.RoundStats read = new RunSummary.RoundStats("maria-1", "oltp_read_write", 8, "read", 2,
                List.of(1, 2), fig(40, 1.0, 39, 41), fig(20, 0.5, 19.5, 20.5), fig(800, 1.0, 799, 801),
                fig(1400, 0.0, 1400, 1400), fig(1900, 0.0, 1900, 1900), 40, 20);
        RunSummary.Sweep sweep = new RunSummary.Sweep("maria-1", "oltp_read_write", RunSummary.ALL_ROUNDS,
                List.of(new RunSummary.Level(8, 110, 110, 2)), 110, 8, null, null);
        RunSummary.Sweep round1 = new RunSummary.Sweep("maria-3", "oltp_read_write", 1,
                List.of(new RunSummary.Level(4, 300, 300, 1), new RunSummary.Level(8, 305, 305, 1)), 305, 8, 4, 300.0);
        RunSummary.ScaleOut peak = new RunSummary.ScaleOut("oltp_read_write", RunSummary.ScaleOut.PEAK, "MariaDB",
                "maria-1", "maria-3", 3, 8, 110, 8, 305, 305 / 110.0);
        RunSummary last = new RunSummary(RUN, List.of(all, read), List.of(sweep, round1), List.of(peak), 5.0, 1,
                "default", 2, List.of(), true, 12_000);
        return List.of(first, last);
    }

    private static RunSummary.Figure fig(double mean, Double stddev, double min, double max) {
        return new RunSummary.Figure(mean, stddev, min, max);
    }

    private static List<SyntheticRun.Rec> records(List<RunSummary> summaries) {
        List<SyntheticRun.Rec> out = new ArrayList<>();
        summaries.forEach(s -> out.add(new SyntheticRun.Rec(Topics.RUN_SUMMARIES, 0,
                s.key().getBytes(StandardCharsets.UTF_8), Json.write(s))));
        return out;
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        return TestArchives.rows(archive, sql);
    }

    @Test
    void runSummaries_everyRecordFlattened_lastRecordsRowsDerived() throws SQLException {
        // one record per file: the last record sits in a later file than the first
        ArchiveSummary summary = TestArchives.write(archive, records(summaries()), 1);
        assertThat(summary.corruptRecords()).isZero();

        // 1 run row + 1 rounds row, then 1 run row + 2 rounds + 2 sweeps + 1 scale_out
        assertThat(rows("SELECT kind, count(*) FROM run_summary_events GROUP BY kind ORDER BY kind")).containsExactly(
                List.of("rounds", 3L), List.of("run", 2L), List.of("scale_out", 1L), List.of("sweep", 2L));
        assertThat(rows("SELECT DISTINCT run_id, at_ms, complete FROM run_summaries")).containsExactly(
                List.of(RUN, 12_000L, true));
        assertThat(rows("SELECT kind, op, rounds, step_ids, qps_mean, qps_stddev, qps_min, qps_max, tps_stddev,"
                + " p99_us_max, pooled_qps FROM run_summaries WHERE kind = 'rounds' ORDER BY op")).containsExactly(
                List.of("rounds", "*", 2, "[1,2]", 110.0, 14.142135623730951, 100.0, 120.0, 7.0710678118654755,
                        2200.0, 110.0),
                List.of("rounds", "read", 2, "[1,2]", 40.0, 1.0, 39.0, 41.0, 0.5, 1900.0, 40.0));
        assertThat(rows("SELECT target, round, peak_qps, peak_threads, plateau_threads, plateau_qps, levels"
                + " FROM run_summaries WHERE kind = 'sweep' ORDER BY target")).containsExactly(
                Arrays.asList("maria-1", 0, 110.0, 8, null, null,
                        "[{\"threads\":8,\"qps\":110.0,\"plateauQps\":110.0,\"rounds\":2}]"),
                Arrays.asList("maria-3", 1, 305.0, 8, 4, 300.0,
                        "[{\"threads\":4,\"qps\":300.0,\"plateauQps\":300.0,\"rounds\":1},"
                                + "{\"threads\":8,\"qps\":305.0,\"plateauQps\":305.0,\"rounds\":1}]"));
        assertThat(rows("SELECT workload, basis, product, single_target, multi_target, nodes, single_qps, multi_qps,"
                + " ratio FROM run_summaries WHERE kind = 'scale_out'")).containsExactly(
                List.of("oltp_read_write", "peak", "MariaDB", "maria-1", "maria-3", 3, 110.0, 305.0, 305 / 110.0));
        assertThat(rows("SELECT plateau_min_gain_pct, plateau_patience, plateau_source, steps_summarized,"
                + " steps_pending FROM run_summaries WHERE kind = 'run'")).containsExactly(
                List.of(5.0, 1, "default", 2, "[]"));
        // a single round's standard deviation is undefined: NULL, not 0
        assertThat(rows("SELECT qps_stddev FROM run_summary_events WHERE kind = 'rounds' AND at_ms = 10000"))
                .containsExactly(Arrays.asList((Object) null));
    }

    @Test
    void rewritingTheSameRecords_keepsOneCopyOfTheLastRecord() throws SQLException {
        List<SyntheticRun.Rec> records = records(summaries());
        TestArchives.write(archive, records, 1);
        // a second archiver over the same offsets (a lost commit) rewrites the same files
        TestArchives.write(archive, records, 1);
        assertThat(rows("SELECT count(*) FROM run_summary_events")).containsExactly(List.of(8L));
        assertThat(rows("SELECT count(*) FROM run_summaries")).containsExactly(List.of(6L));
    }
}
