package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Computes {@link StepFigure}s exactly from the archive's raw samples: the shared computation behind
 * {@code compare} and the report's summary table (same definitions: measurement phase only, QPS and TPS over the
 * measured span of each step summed over rounds, nearest-rank percentiles). Stateless and thread safe; the
 * {@link ArchiveDatabase} it reads is not.
 */
public final class StepFigures {

    private StepFigures() {}

    // One scan of the measured samples per run: per step the span (cheap min/max), per (target, workload, threads)
    // the counts and one sort for all three percentiles (a list argument shares it; three calls sort three times).
    private static final String SQL = """
            WITH m AS MATERIALIZED (
              SELECT s.run_id, s.step_id, st.target, st.workload, st.threads, s.latency_us, s.status, s.queries,
                     s.start_us
              FROM samples s JOIN steps st ON s.run_id = st.run_id AND s.step_id = st.step_id
              WHERE NOT s.warmup AND s.run_id IN (%1$s)),
            per_step AS (
              SELECT run_id, any_value(target) AS target, any_value(workload) AS workload,
                     any_value(threads) AS threads, max(start_us + latency_us) - min(start_us) AS span_us
              FROM m GROUP BY run_id, step_id),
            spans AS (
              SELECT run_id, target, workload, threads, count(*) AS rounds, sum(span_us) AS span_us
              FROM per_step GROUP BY run_id, target, workload, threads),
            figures AS (
              SELECT run_id, target, workload, threads, count(*) AS n,
                     count(*) FILTER (WHERE status <> 'ok') AS errors, CAST(sum(queries) AS BIGINT) AS queries,
                     avg(latency_us) AS mean_us, quantile_disc(latency_us, [0.5, 0.95, 0.99]) AS q,
                     max(latency_us) AS max_us
              FROM m GROUP BY run_id, target, workload, threads)
            SELECT f.run_id, f.target, f.workload, f.threads, s.rounds, f.n, f.errors, CAST(s.span_us AS BIGINT),
                   f.queries, f.mean_us, f.q[1], f.q[2], f.q[3], f.max_us
            FROM figures f JOIN spans s ON f.run_id = s.run_id AND f.target = s.target
                                       AND f.workload = s.workload AND f.threads = s.threads
            ORDER BY f.run_id, f.workload, f.target, f.threads
            """;

    /** Figures of every (target, workload, threads) of the given runs that has measured samples. */
    public static List<StepFigure> of(ArchiveDatabase db, Collection<String> runIds) throws SQLException {
        if (runIds.isEmpty() || !db.has(ArchiveLayout.SAMPLES) || !db.has(ArchiveLayout.STEPS)) {
            return List.of();
        }
        // literals, not parameters: DuckDB prunes hive partitions (whole runs' files) only for constants
        String runs = runIds.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", "));
        List<StepFigure> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(SQL.formatted(runs))) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long samples = rs.getLong(6);
                    long errors = rs.getLong(7);
                    double seconds = rs.getLong(8) / 1e6;
                    long queries = rs.getLong(9);
                    out.add(new StepFigure(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                            rs.getInt(5), samples, errors, seconds, queries,
                            seconds > 0 ? queries / seconds : 0, seconds > 0 ? (samples - errors) / seconds : 0,
                            rs.getDouble(10), rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getLong(14)));
                }
            }
        }
        return out;
    }
}
