package io.tailstream.reporter.history;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * One metric of every run's completed steps of a key, pooled per run, computed from the raw samples with the
 * definitions of {@link StepFigureQuery} (the figures of {@code compare} and the report) but only what the metric
 * needs: sums per step for QPS, TPS and errors, one nearest-rank percentile per run and key for latencies. A history
 * of a thousand runs is read in one pass without counting each distinct latency of each step. Stateless.
 */
final class TrendFigures {

    private TrendFigures() {}

    /** A run's value of the metric and the completed steps pooled into it. */
    record Value(double value, int rounds) {}

    // The completed steps the trend follows, and their runs.
    private static final String COMPLETED = """
            st AS (SELECT run_id, step_id, target, workload, threads, exact_us FROM %1$s),
            r AS (SELECT DISTINCT run_id FROM %1$s)""".formatted(TrendQuery.STEPS_TABLE);

    // Per run and key: steps with measured samples, samples, successful ones, statements counted as QPS counts them,
    // and the measured span (a step's recorded boundaries, else the span of its measured samples), summed over steps.
    // Every step of the runs is summed and the join keeps the completed ones: cheaper than filtering the samples.
    private static final String SUMS = "WITH " + COMPLETED + """
            ,
            per_step AS (
              SELECT s.run_id, s.step_id, count(*) AS n, count(*) FILTER (WHERE s.status = 'ok') AS n_ok,
                     sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS queries,
                     max(s.start_us + s.latency_us) - min(s.start_us) AS sample_span_us
              FROM samples s SEMI JOIN r ON s.run_id = r.run_id
              WHERE NOT s.warmup
              GROUP BY s.run_id, s.step_id)
            SELECT st.run_id, st.target, st.workload, st.threads, count(*),
                   CAST(sum(p.n) AS BIGINT), CAST(sum(p.n_ok) AS BIGINT), CAST(sum(p.queries) AS BIGINT),
                   CAST(sum(coalesce(st.exact_us, p.sample_span_us)) AS BIGINT)
            FROM per_step p JOIN st ON p.run_id = st.run_id AND p.step_id = st.step_id
            GROUP BY st.run_id, st.target, st.workload, st.threads""";

    // Per run and key: steps with measured samples and the nearest-rank percentile %1$s of the successful ones'
    // latencies (NULL when none succeeded). The fraction is a DECIMAL literal, for which DuckDB computes the rank
    // ceil(p x n) in integers.
    private static final String PERCENTILE = "WITH " + COMPLETED + """

            SELECT st.run_id, st.target, st.workload, st.threads, count(DISTINCT st.step_id),
                   quantile_disc(s.latency_us, %1$s) FILTER (WHERE s.status = 'ok')
            FROM samples s SEMI JOIN r ON s.run_id = r.run_id
                 JOIN st ON s.run_id = st.run_id AND s.step_id = st.step_id
            WHERE NOT s.warmup
            GROUP BY st.run_id, st.target, st.workload, st.threads""";

    /**
     * Per run, per key, the metric's value over the completed steps of {@link TrendQuery#STEPS_TABLE}; keys without
     * one (no measured sample, or no successful one for a latency) are absent.
     */
    static Map<String, Map<StepFigure.Key, Value>> of(ArchiveDatabase db, Metric metric) throws SQLException {
        Map<String, Map<StepFigure.Key, Value>> out = new HashMap<>();
        if (!db.has(ArchiveLayout.SAMPLES)) {
            return out;
        }
        String fraction = fraction(metric);
        String sql = fraction == null ? SUMS : PERCENTILE.formatted(fraction);
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                if (fraction != null && rs.getObject(6) == null) {
                    continue;
                }
                double value = fraction == null ? value(metric, rs) : rs.getLong(6) / 1000.0;
                out.computeIfAbsent(rs.getString(1), r -> new HashMap<>()).put(
                        new StepFigure.Key(rs.getString(2), rs.getString(3), rs.getInt(4)),
                        new Value(value, rs.getInt(5)));
            }
        }
        return out;
    }

    /** The percentile a latency metric follows, as a SQL DECIMAL literal; null for the others. */
    private static String fraction(Metric metric) {
        return switch (metric) {
            case P95 -> "0.95";
            case P99 -> "0.99";
            case P999 -> "0.999";
            case QPS, TPS, ERRORS -> null;
        };
    }

    /** QPS, TPS or errors from the sums, with the arithmetic of {@link StepFigure}'s rates. */
    private static double value(Metric metric, ResultSet rs) throws SQLException {
        long samples = rs.getLong(6);
        long ok = rs.getLong(7);
        long queries = rs.getLong(8);
        double seconds = rs.getLong(9) / 1e6;
        return switch (metric) {
            case QPS -> seconds > 0 ? queries / seconds : 0;
            case TPS -> seconds > 0 ? ok / seconds : 0;
            case ERRORS -> (samples - ok) * 100.0 / samples;
            case P95, P99, P999 -> throw new IllegalArgumentException(metric + " is a percentile");
        };
    }
}
