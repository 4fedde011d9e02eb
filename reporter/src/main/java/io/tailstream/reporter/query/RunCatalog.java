package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The runs of an archive, from the derived {@code runs} and {@code steps} datasets. Stateless and thread safe;
 * the {@link ArchiveDatabase} it reads is not.
 */
public final class RunCatalog {

    private RunCatalog() {}

    /** Runs matching the filter, oldest first. Runs skipped as unreadable are not listed (see problems()). */
    public static List<RunListing> list(ArchiveDatabase db, RunFilter filter) throws SQLException {
        if (!db.has(ArchiveLayout.RUNS)) {
            return List.of();
        }
        boolean steps = db.has(ArchiveLayout.STEPS);
        if (!steps && (filter.target() != null || filter.workload() != null)) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder(steps ? """
                WITH s AS (
                  SELECT run_id, count(*) AS steps, list_sort(list_distinct(list(target))) AS targets,
                         list_sort(list_distinct(list(workload))) AS workloads
                  FROM steps GROUP BY run_id)
                SELECT r.run_id, r.plan_name, r.started_at_ms, r.ended_at_ms, r.outcome, r.samples_sent,
                       coalesce(s.steps, 0), s.targets, s.workloads
                FROM runs r LEFT JOIN s ON r.run_id = s.run_id WHERE true""" : """
                SELECT r.run_id, r.plan_name, r.started_at_ms, r.ended_at_ms, r.outcome, r.samples_sent, 0,
                       NULL, NULL
                FROM runs r WHERE true""");
        List<Object> params = new ArrayList<>();
        if (filter.target() != null) {
            sql.append(" AND list_contains(s.targets, ?)");
            params.add(filter.target());
        }
        if (filter.workload() != null) {
            sql.append(" AND list_contains(s.workloads, ?)");
            params.add(filter.workload());
        }
        if (filter.plan() != null) {
            sql.append(" AND r.plan_name = ?");
            params.add(filter.plan());
        }
        if (filter.since() != null) {
            sql.append(" AND r.started_at_ms >= ?");
            params.add(filter.since().toEpochMilli());
        }
        sql.append(" ORDER BY r.started_at_ms, r.run_id");
        List<RunListing> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql.toString())) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new RunListing(rs.getString(1), rs.getString(2), rs.getLong(3), (Long) rs.getObject(4),
                            rs.getString(5), (Long) rs.getObject(6), rs.getInt(7), strings(rs.getArray(8)),
                            strings(rs.getArray(9))));
                }
            }
        }
        return out;
    }

    /**
     * Checks that a run can be read.
     *
     * @throws IllegalArgumentException naming the unreadable file if the run was skipped, or listing the runs
     *                                  that exist if it is not in the archive
     */
    public static RunListing require(ArchiveDatabase db, String runId) throws SQLException {
        var problem = db.problemOf(runId);
        if (problem.isPresent()) {
            throw new IllegalArgumentException("run " + runId + " cannot be read: " + problem.get().file() + ": "
                    + problem.get().reason());
        }
        List<RunListing> all = list(db, RunFilter.ALL);
        for (RunListing r : all) {
            if (r.runId().equals(runId)) {
                return r;
            }
        }
        throw new IllegalArgumentException("run " + runId + " is not in the archive " + db.archive() + "; runs there: "
                + (all.isEmpty() ? "none" : all.stream().map(RunListing::runId).toList()));
    }

    private static List<String> strings(Array a) throws SQLException {
        if (a == null) {
            return List.of();
        }
        Object[] values = (Object[]) a.getArray();
        return Arrays.stream(values).map(String::valueOf).toList();
    }
}
