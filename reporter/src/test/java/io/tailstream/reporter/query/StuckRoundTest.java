package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.history.Metric;
import io.tailstream.reporter.history.Series;
import io.tailstream.reporter.history.SeriesPoint;
import io.tailstream.reporter.history.TrendFilter;
import io.tailstream.reporter.history.TrendQuery;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleBlockDecoder;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of three rounds of one step whose second round completed without a single sample (every thread stuck for the
 * whole span): the round counts in the pooled figures with its span and no work, for {@code compare}, the report
 * and {@code trend} alike, and has figures of its own (0 QPS).
 */
class StuckRoundTest {

    private static final int STUCK_STEP = 2;

    @TempDir
    static Path archive;

    static SyntheticRun run;

    @BeforeAll
    static void writeArchive() {
        List<SyntheticRun.StepSpec> steps = List.of(
                new SyntheticRun.StepSpec("maria", "oltp_read_write", 4, 1, 18, 300, 1200),
                new SyntheticRun.StepSpec("maria", "oltp_read_write", 4, 2, 18, 300, 1200),
                new SyntheticRun.StepSpec("maria", "oltp_read_write", 4, 3, 18, 300, 1200));
        run = new SyntheticRun("stuck", 7, List.of("p1"), steps, 400, 1, 1_764_000_000_000L, true);
        // the stuck round's sample blocks never existed; its markers and control events did
        List<SyntheticRun.Rec> records = run.allRecords(1, 1).stream().filter(r -> !r.topic().equals(Topics.SAMPLES)
                || !stuckBlock(SampleBlockDecoder.readHeader(r.value()))).toList();
        TestArchives.write(archive, records);
    }

    private static boolean stuckBlock(BlockHeader h) {
        return h.stepId() == STUCK_STEP && h.sampleCount() > 0;
    }

    /** The measured samples the pool holds: those of the rounds that ran. */
    private static List<SyntheticRun.Row> measured() {
        return run.rows.stream().filter(r -> !r.warmup() && r.stepId() != STUCK_STEP).toList();
    }

    private static double pooledSeconds() {
        return (run.measuredSpanUs(1) + run.measuredSpanUs(2) + run.measuredSpanUs(3)) / 1e6;
    }

    private static long okQueries(List<SyntheticRun.Row> rows) {
        return rows.stream().mapToLong(r -> r.status().equals("ok") ? r.queries() : Math.max(r.queries() - 1, 0))
                .sum();
    }

    @Test
    void pooledFigures_countTheStuckRoundsSpan_andItHasFiguresOfItsOwn() throws SQLException {
        List<SyntheticRun.Row> rows = measured();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            List<StepFigure> figures = StepFigureQuery.of(db, List.of("stuck"));
            assertThat(figures).hasSize(1);
            StepFigure pooled = figures.get(0);
            assertThat(pooled.rounds()).isEqualTo(3);
            assertThat(pooled.samples()).isEqualTo(rows.size());
            assertThat(pooled.seconds()).isEqualTo(pooledSeconds());
            assertThat(pooled.qps()).isEqualTo(okQueries(rows) / pooledSeconds());
            assertThat(pooled.perStep()).extracting(f -> f.steps().get(0).stepId()).containsExactly(1, 2, 3);
            StepFigure stuck = pooled.perStep().get(1);
            assertThat(stuck.samples()).isZero();
            assertThat(stuck.qps()).isZero();
            assertThat(stuck.ok()).isNull();
            assertThat(stuck.seconds()).isEqualTo(run.measuredSpanUs(STUCK_STEP) / 1e6);
            assertThat(stuck.steps().get(0).round()).isEqualTo(2);

            // the report pools across runs with the same rule
            StepFigure across = StepFigureQuery.of(db, List.of("stuck"), StepFigureQuery.Pooling.ACROSS_RUNS).get(0);
            assertThat(across.rounds()).isEqualTo(3);
            assertThat(across.qps()).isEqualTo(pooled.qps());
        }
    }

    @Test
    void trend_poolsTheStuckRoundAsCompareDoes() throws SQLException {
        List<SyntheticRun.Row> rows = measured();
        long[] ok = rows.stream().filter(r -> r.status().equals("ok")).mapToLong(SyntheticRun.Row::latencyUs).sorted()
                .toArray();
        long p99 = ok[(int) Math.ceil(0.99 * ok.length) - 1];
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            ChangePointDetector detector = new ChangePointDetector(ChangePointSettings.DEFAULTS);
            SeriesPoint qps = only(TrendQuery.of(db, TrendFilter.ALL, Metric.QPS, detector));
            assertThat(qps.value()).isEqualTo(okQueries(rows) / pooledSeconds());
            assertThat(qps.rounds()).isEqualTo(3);
            SeriesPoint latency = only(TrendQuery.of(db, TrendFilter.ALL, Metric.P99, detector));
            assertThat(latency.value()).isEqualTo(p99 / 1000.0);
            assertThat(latency.rounds()).isEqualTo(3);
        }
    }

    private static SeriesPoint only(List<Series> series) {
        assertThat(series).hasSize(1);
        assertThat(series.get(0).points()).hasSize(1);
        return series.get(0).points().get(0);
    }
}
