package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.sql.SQLException;
import java.util.Map;

/** Per step, what its raw samples say beyond the summary figures: the warm-up count and the samples' bounds. */
final class SampleFactsQuery {

    /** Warm-up sample count of a step and the bounds of its samples. */
    record SampleFacts(long warmupSamples, TimeSeries.Bounds bounds) {}

    private SampleFactsQuery() {}

    /** Steps without samples are absent. */
    static Map<StepKey, SampleFacts> load(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = "SELECT run_id, step_id, count(*) FILTER (WHERE warmup) AS warmup_samples,"
                + " min(start_us) FILTER (WHERE NOT warmup) AS first_measured_start_us,"
                + " max(start_us + latency_us) AS last_end_us,"
                + " max(start_us + latency_us) FILTER (WHERE NOT warmup) AS last_measured_end_us"
                + " FROM " + ArchiveLayout.SAMPLES + " WHERE " + inRuns + " GROUP BY run_id, step_id";
        return ResultSets.byStep(db, sql, rs -> new SampleFacts(rs.getLong("warmup_samples"), new TimeSeries.Bounds(
                ResultSets.longOrNull(rs, "first_measured_start_us"), ResultSets.longOrNull(rs, "last_end_us"),
                ResultSets.longOrNull(rs, "last_measured_end_us"))));
    }
}
