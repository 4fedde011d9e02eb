package io.tailstream.reporter.history;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import io.tailstream.reporter.query.TpccSamples;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * One metric of every run's completed steps of a key, pooled per run, computed from the raw samples with the
 * definitions of {@link StepFigureQuery} (the figures of {@code compare} and the report) but only what the metric
 * needs: sums per step for QPS, TPS, tpmC and errors, one nearest-rank percentile per run and key for latencies. A
 * history of a thousand runs is read in one pass without counting each distinct latency of each step. Stateless.
 */
final class TrendFigures {

    private TrendFigures() {}

    /** Up to this many runs are selected by literals ({@link #runsCondition}). */
    static final int MAX_LITERAL_RUNS = 50;

    /** A run's value of the metric and the completed steps pooled into it. */
    record Value(double value, int rounds) {}

    // The completed steps the trend follows.
    private static final String COMPLETED = """
            st AS (SELECT run_id, step_id, target, workload, threads, exact_us FROM %s)""".formatted(
            TrendQuery.STEPS_TABLE);

    // Per run and key: completed steps, samples, successful ones, statements counted as QPS counts them, the
    // measured span (a step's recorded boundaries, else the span of its measured samples) and the completed
    // New-Orders (TPC-C's tpmC counts them), summed over steps. The samples are summed per step in one scan of the
    // runs' partitions (%1$s: which runs, see runsCondition; %2$s: which samples are completed New-Orders), then
    // joined to the completed steps: a completed step without a measured sample counts with its span and no
    // statement. A key with no measured sample at all has no value.
    private static final String SUMS = "WITH " + COMPLETED + """
            ,
            per_step AS (
              SELECT s.run_id, s.step_id, count(*) AS n, count(*) FILTER (WHERE s.status = 'ok') AS n_ok,
                     sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS queries,
                     max(s.start_us + s.latency_us) - min(s.start_us) AS sample_span_us,
                     count(*) FILTER (WHERE %2$s) AS new_orders
              FROM samples s
              WHERE NOT s.warmup AND %1$s
              GROUP BY s.run_id, s.step_id)
            SELECT st.run_id, st.target, st.workload, st.threads, count(*),
                   CAST(coalesce(sum(p.n), 0) AS BIGINT), CAST(coalesce(sum(p.n_ok), 0) AS BIGINT),
                   CAST(coalesce(sum(p.queries), 0) AS BIGINT),
                   CAST(coalesce(sum(coalesce(st.exact_us, p.sample_span_us)), 0) AS BIGINT),
                   CAST(coalesce(sum(p.new_orders), 0) AS BIGINT)
            FROM st LEFT JOIN per_step p ON p.run_id = st.run_id AND p.step_id = st.step_id
            GROUP BY st.run_id, st.target, st.workload, st.threads
            HAVING sum(p.n) > 0""";

    // Per run and key: completed steps and the nearest-rank percentile %2$s of the successful measured samples'
    // latencies (NULL when none succeeded); keys with no measured sample are absent. The fraction is a DECIMAL
    // literal, for which DuckDB computes the rank ceil(p x n) in integers. %1$s: which runs, see runsCondition.
    private static final String PERCENTILE = "WITH " + COMPLETED + """
            ,
            per_key AS (
              SELECT st.run_id, st.target, st.workload, st.threads,
                     quantile_disc(s.latency_us, %2$s) FILTER (WHERE s.status = 'ok') AS p
              FROM samples s JOIN st ON s.run_id = st.run_id AND s.step_id = st.step_id
              WHERE NOT s.warmup AND %1$s
              GROUP BY st.run_id, st.target, st.workload, st.threads)
            SELECT k.run_id, k.target, k.workload, k.threads, count(*), any_value(k.p)
            FROM per_key k JOIN st ON st.run_id = k.run_id AND st.target = k.target AND st.workload = k.workload
                 AND st.threads = k.threads
            GROUP BY k.run_id, k.target, k.workload, k.threads""";

    /**
     * Per run, per key, the metric's value over the completed steps of {@link TrendQuery#STEPS_TABLE}; keys without
     * one (no measured sample, or no successful one for a latency) are absent.
     */
    static Map<String, Map<StepFigure.Key, Value>> of(ArchiveDatabase db, Metric metric) throws SQLException {
        return of(db, metric, MAX_LITERAL_RUNS);
    }

    /** {@link #of(ArchiveDatabase, Metric)}, with up to {@code maxLiteralRuns} runs selected by literals. */
    static Map<String, Map<StepFigure.Key, Value>> of(ArchiveDatabase db, Metric metric, int maxLiteralRuns)
            throws SQLException {
        Map<String, Map<StepFigure.Key, Value>> out = new HashMap<>();
        if (!db.has(ArchiveLayout.SAMPLES)) {
            return out;
        }
        String runs = runsCondition(db, maxLiteralRuns);
        if (runs == null) {
            return out;
        }
        String fraction = fraction(metric);
        String sql = fraction == null ? SUMS.formatted(runs, TpccSamples.COMPLETED_NEW_ORDER)
                : PERCENTILE.formatted(runs, fraction);
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                if (fraction != null && rs.getObject(6) == null || !metric.appliesTo(rs.getString(3))) {
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

    /**
     * The runs whose samples count, as a condition on {@code s.run_id}; null if there are none. A few runs are listed
     * as literals, by which DuckDB reads only their partitions; for more it would compare every file's partition with
     * every literal (1,000 runs of 1,000 files: 1.1 s), and a subquery, read in one scan of every partition, is faster.
     */
    private static String runsCondition(ArchiveDatabase db, int maxLiteralRuns) throws SQLException {
        StringJoiner literals = new StringJoiner(", ", "s.run_id IN (", ")");
        int runs = 0;
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT run_id FROM " + TrendQuery.STEPS_TABLE)) {
            while (rs.next()) {
                literals.add(ArchiveDatabase.sqlString(rs.getString(1)));
                runs++;
            }
        }
        if (runs == 0) {
            return null;
        }
        return runs <= maxLiteralRuns ? literals.toString()
                : "s.run_id IN (SELECT run_id FROM " + TrendQuery.STEPS_TABLE + ")";
    }

    /** The percentile a latency metric follows, as a SQL DECIMAL literal; null for the others. */
    private static String fraction(Metric metric) {
        return switch (metric) {
            case P95 -> "0.95";
            case P99 -> "0.99";
            case P999 -> "0.999";
            case QPS, TPS, TPMC, ERRORS -> null;
        };
    }

    /** QPS, TPS, tpmC or errors from the sums, with the arithmetic of {@link StepFigure}'s rates. */
    private static double value(Metric metric, ResultSet rs) throws SQLException {
        long samples = rs.getLong(6);
        long ok = rs.getLong(7);
        long queries = rs.getLong(8);
        double seconds = rs.getLong(9) / 1e6;
        return switch (metric) {
            case QPS -> seconds > 0 ? queries / seconds : 0;
            case TPS -> seconds > 0 ? ok / seconds : 0;
            case TPMC -> seconds > 0 ? rs.getLong(10) * 60 / seconds : 0;
            case ERRORS -> (samples - ok) * 100.0 / samples;
            case P95, P99, P999 -> throw new IllegalArgumentException(metric + " is a percentile");
        };
    }
}
