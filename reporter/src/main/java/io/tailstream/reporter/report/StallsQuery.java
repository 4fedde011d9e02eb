package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The stalls section: the stalls of the selected runs and, per step, whether the stall detector ran. Stateless. */
final class StallsQuery {

    private StallsQuery() {}

    /**
     * Stalls of the selected runs from the {@code stalls} view, by start: the last record per stall (open stalls are
     * republished while they last, each time with a later end), less withdrawn ones (a closing record ending where
     * it starts).
     */
    static List<Stall> stalls(ArchiveDatabase db, String inRuns, List<StepInfo> steps) throws SQLException {
        Map<StepKey, StepInfo> byKey = new HashMap<>();
        steps.forEach(s -> byKey.put(StepKey.of(s), s));
        List<Stall> out = new ArrayList<>();
        String sql = "SELECT run_id, step_id, kind, start_ms, max(end_ms) AS end_ms FROM " + ArchiveLayout.STALLS
                + " WHERE " + inRuns + " GROUP BY run_id, step_id, kind, start_ms HAVING max(end_ms) > start_ms"
                + " ORDER BY start_ms, run_id, step_id";
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                StepInfo s = byKey.get(StepKey.read(rs));
                out.add(new Stall(rs.getString("run_id"), rs.getInt("step_id"), s == null ? "" : s.target(),
                        s == null ? "" : s.workload(), s == null ? 0 : s.threads(), rs.getString("kind"),
                        rs.getLong("start_ms"), rs.getLong("end_ms")));
            }
        }
        return out;
    }

    /**
     * Per step, whether the aggregator's stall detector ran: a step summary of the step is in the archive (the
     * detector runs in the stage that publishes them, and publishes the summary once the step's windows closed).
     */
    static List<StallDetection> detection(ArchiveDatabase db, String inRuns, List<StepInfo> steps, List<Stall> stalls)
            throws SQLException {
        Set<StepKey> summarized = new HashSet<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT run_id, step_id FROM " + ArchiveLayout.SUMMARIES
                     + " WHERE " + inRuns)) {
            while (rs.next()) {
                summarized.add(StepKey.read(rs));
            }
        }
        Map<StepKey, Integer> found = new HashMap<>();
        stalls.forEach(x -> found.merge(new StepKey(x.runId(), x.stepId()), 1, Integer::sum));
        List<StallDetection> out = new ArrayList<>();
        for (StepInfo s : steps) {
            StepKey key = StepKey.of(s);
            out.add(new StallDetection(s.runId(), s.stepId(), s.target(), s.workload(), s.threads(), s.round(),
                    summarized.contains(key), found.getOrDefault(key, 0)));
        }
        return out;
    }
}
