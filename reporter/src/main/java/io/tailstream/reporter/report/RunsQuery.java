package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The archive's runs and the report's selection of them. Stateless. */
final class RunsQuery {

    private RunsQuery() {}

    /** Every run of the archive, by start time. */
    static List<RunInfo> all(ArchiveDatabase db) throws SQLException {
        List<RunInfo> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, plan_name, started_at_ms, ended_at_ms, samples_sent,"
                     + " outcome, client, settings FROM " + ArchiveLayout.RUNS + " ORDER BY started_at_ms, run_id")) {
            while (rs.next()) {
                out.add(new RunInfo(rs.getString("run_id"), rs.getString("plan_name"), rs.getLong("started_at_ms"),
                        (Long) rs.getObject("ended_at_ms"), (Long) rs.getObject("samples_sent"),
                        rs.getString("outcome"), rs.getString("client"), rs.getString("settings")));
            }
        }
        return out;
    }

    /**
     * The runs the options select: the latest (of a plan), the runs of a plan, the named runs in the given order,
     * or all.
     *
     * @throws IllegalArgumentException naming what exists, for an empty archive, an unknown plan or run
     */
    static List<RunInfo> select(List<RunInfo> all, ReportOptions options, Path archive) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("the archive " + archive + " has no runs");
        }
        List<RunInfo> pool = all;
        if (options.planName() != null) {
            pool = all.stream().filter(r -> options.planName().equals(r.planName())).toList();
            if (pool.isEmpty()) {
                throw new IllegalArgumentException("plan " + options.planName() + " has no runs in the archive "
                        + archive + "; plans there: " + new TreeSet<>(all.stream().map(RunInfo::planName).toList()));
            }
        }
        if (options.latest()) {
            return List.of(pool.get(pool.size() - 1));
        }
        if (options.runIds().isEmpty()) {
            return pool;
        }
        Map<String, RunInfo> byId = new LinkedHashMap<>();
        all.forEach(r -> byId.put(r.runId(), r));
        List<RunInfo> out = new ArrayList<>();
        for (String id : options.runIds()) {
            RunInfo r = byId.get(id);
            if (r == null) {
                throw new IllegalArgumentException("run " + id + " is not in the archive " + archive
                        + "; runs there: " + byId.keySet());
            }
            out.add(r);
        }
        return out;
    }
}
