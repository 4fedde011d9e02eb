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

    private static final String SQL = """
            WITH m AS (
              SELECT s.run_id, s.step_id, st.target, st.workload, st.threads, s.latency_us, s.status, s.queries,
                     s.start_us, s.start_us + s.latency_us AS end_us
              FROM samples s JOIN steps st ON s.run_id = st.run_id AND s.step_id = st.step_id
              WHERE NOT s.warmup AND s.run_id IN (%1$s)),
            per_step AS (
              SELECT run_id, step_id, any_value(target) AS target, any_value(workload) AS workload,
                     any_value(threads) AS threads, max(end_us) - min(start_us) AS span_us
              FROM m GROUP BY run_id, step_id),
            spans AS (
              SELECT run_id, target, workload, threads, count(*) AS rounds, sum(span_us) AS span_us
              FROM per_step GROUP BY run_id, target, workload, threads)
            SELECT m.run_id, m.target, m.workload, m.threads, any_value(spans.rounds), count(*),
                   count(*) FILTER (WHERE m.status <> 'ok'), CAST(any_value(spans.span_us) AS BIGINT),
                   CAST(sum(m.queries) AS BIGINT), avg(m.latency_us), quantile_disc(m.latency_us, 0.5),
                   quantile_disc(m.latency_us, 0.95), quantile_disc(m.latency_us, 0.99), max(m.latency_us)
            FROM m JOIN spans ON m.run_id = spans.run_id AND m.target = spans.target
                             AND m.workload = spans.workload AND m.threads = spans.threads
            GROUP BY m.run_id, m.target, m.workload, m.threads
            ORDER BY m.run_id, m.workload, m.target, m.threads
            """;

    /** Figures of every (target, workload, threads) of the given runs that has measured samples. */
    public static List<StepFigure> of(ArchiveDatabase db, Collection<String> runIds) throws SQLException {
        if (runIds.isEmpty() || !db.has(ArchiveLayout.SAMPLES) || !db.has(ArchiveLayout.STEPS)) {
            return List.of();
        }
        String params = runIds.stream().map(r -> "?").collect(Collectors.joining(", "));
        List<StepFigure> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(SQL.formatted(params))) {
            int i = 1;
            for (String run : runIds) {
                ps.setString(i++, run);
            }
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
