package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The points of each step's time-series chart: one per one-second window of the step's samples (by completion
 * time), QPS from the statements of successful transactions and P99 of the window, with the step's measurement start
 * and end. Definitions (docs/report.md):
 * <ul>
 *   <li>windows are the aggregator's all-ops base windows (the shortest of the step's; roll-ups are left out), rows
 *       of one window (late corrections) merged: counts summed, histograms re-merged for P99; a step without windows
 *       gets the same from its raw samples per completion second;</li>
 *   <li>a window's QPS is its successful statements ({@code ok_queries}; all statements, {@code queries}, where the
 *       archive predates that column) divided by the time of the window inside the step's active interval
 *       {@code [start_us, max(measure_end_us, last completion)]} from the {@code steps} dataset, so the windows at a
 *       step's edges, which hold part of a second, are not drawn as dips; where the archive lacks those boundaries,
 *       by the window's length;</li>
 *   <li>the measurement starts at {@code measure_start_us} and ends at {@code measure_end_us} (else the first
 *       measured start and the last measured completion).</li>
 * </ul>
 * Stateless; not thread safe while loading (one DuckDB connection).
 */
final class TimeSeries {

    private TimeSeries() {}

    /** Bounds of a step's samples, µs: first measured start, last completion, last measured completion. */
    record Bounds(Long firstMeasuredStartUs, Long lastEndUs, Long lastMeasuredEndUs) {}

    /**
     * One step's chart.
     *
     * @param points         {epoch s of the window start, QPS, P99 ms}, ascending
     * @param startMs        the step's start (warm-up included), or null when not recorded
     * @param measureStartMs the measurement's start, or null without measured samples
     * @param measureEndMs   the measurement's end, or null without measured samples
     * @param normalized     QPS divided by the windows' time inside the step (false: by the windows' length)
     * @param allStatements  some window's QPS counts all statements, not only successful ones (no ok_queries)
     */
    record StepPoints(List<double[]> points, Long startMs, Long measureStartMs, Long measureEndMs, boolean normalized,
                      boolean allStatements) {}

    /** A merged window: [startMs, endMs), its statements (successful, or all when null) and P99. */
    private record Window(long startMs, long endMs, long queries, Long okQueries, long p99Us) {}

    /** One window of one step, for merging the rows of a window. */
    private record WindowKey(StepKey step, long windowStartMs) {}

    /** Recorded phase boundaries of a step, µs; each null when not recorded. */
    private record Phases(Long startUs, Long measureStartUs, Long measureEndUs) {}

    static Map<StepKey, StepPoints> load(ArchiveDatabase db, String inRuns, List<StepInfo> steps,
                                         Map<StepKey, Bounds> bounds) throws SQLException {
        Map<StepKey, Phases> phases = phases(db, inRuns);
        Map<StepKey, List<Window>> windows = db.has(ArchiveLayout.WINDOWS) ? windows(db, inRuns) : Map.of();
        Map<StepKey, StepPoints> out = new HashMap<>();
        for (StepInfo s : steps) {
            StepKey key = StepKey.of(s);
            List<Window> w = windows.getOrDefault(key, List.of());
            if (w.isEmpty() && db.has(ArchiveLayout.SAMPLES)) {
                w = sampleWindows(db, s.runId(), s.stepId());
            }
            out.put(key, points(w, phases.getOrDefault(key, new Phases(null, null, null)),
                    bounds.getOrDefault(key, new Bounds(null, null, null))));
        }
        return out;
    }

    private static StepPoints points(List<Window> windows, Phases ph, Bounds b) {
        Long measureStartUs = ph.measureStartUs() != null ? ph.measureStartUs() : b.firstMeasuredStartUs();
        Long measureEndUs = ph.measureEndUs() != null ? ph.measureEndUs() : b.lastMeasuredEndUs();
        boolean normalized = ph.startUs() != null && ph.measureEndUs() != null;
        // transactions in flight at the measurement's end complete after it: the step is active until the last one
        long fromUs = normalized ? ph.startUs() : 0;
        long toUs = normalized ? Math.max(ph.measureEndUs(), b.lastEndUs() == null ? Long.MIN_VALUE : b.lastEndUs())
                : 0;
        List<double[]> points = new ArrayList<>();
        boolean allStatements = false;
        for (Window w : windows) {
            long queries = w.okQueries() != null ? w.okQueries() : w.queries();
            allStatements |= w.okQueries() == null;
            long coveredUs = normalized ? Math.min(w.endMs() * 1000, toUs) - Math.max(w.startMs() * 1000, fromUs)
                    : (w.endMs() - w.startMs()) * 1000;
            if (coveredUs <= 0) {
                continue; // no time of the step in it: no sample can have completed there
            }
            points.add(new double[] {w.startMs() / 1000.0, queries / (coveredUs / 1e6), w.p99Us() / 1000.0});
        }
        return new StepPoints(points, ph.startUs() == null ? null : ph.startUs() / 1000,
                measureStartUs == null ? null : measureStartUs / 1000,
                measureEndUs == null ? null : measureEndUs / 1000,
                normalized, allStatements);
    }

    private static Map<StepKey, Phases> phases(ArchiveDatabase db, String inRuns) throws SQLException {
        return ResultSets.byStep(db, "SELECT run_id, step_id, start_us, measure_start_us, measure_end_us FROM "
                + ArchiveLayout.STEPS + " WHERE " + inRuns, rs -> new Phases(ResultSets.longOrNull(rs, "start_us"),
                ResultSets.longOrNull(rs, "measure_start_us"), ResultSets.longOrNull(rs, "measure_end_us")));
    }

    /**
     * The base all-ops windows of every step, rows of one window merged. Histograms are read only for
     * windows with several rows, because reading every histogram of a 12-hour soak would dominate the report's time.
     */
    private static Map<StepKey, List<Window>> windows(ArchiveDatabase db, String inRuns) throws SQLException {
        String base = "WITH w AS (SELECT run_id, step_id, window_start_ms, window_end_ms, queries, ok_queries,"
                + " p99_us, histogram FROM " + ArchiveLayout.WINDOWS + " WHERE op = '*' AND " + inRuns
                + " QUALIFY window_end_ms - window_start_ms"
                + " = min(window_end_ms - window_start_ms) OVER (PARTITION BY run_id, step_id)) ";
        Map<WindowKey, Histogram> merged = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(base + ", d AS (SELECT run_id, step_id, window_start_ms FROM w"
                     + " GROUP BY ALL HAVING count(*) > 1) SELECT w.run_id, w.step_id, w.window_start_ms, w.histogram"
                     + " FROM w JOIN d USING (run_id, step_id, window_start_ms)")) {
            while (rs.next()) {
                Histogram h = LatencyHistograms.fromBase64(rs.getString("histogram"));
                merged.merge(new WindowKey(StepKey.read(rs), rs.getLong("window_start_ms")), h, (a, x) -> {
                    a.add(x);
                    return a;
                });
            }
        }
        Map<StepKey, List<Window>> out = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(base + "SELECT run_id, step_id, window_start_ms,"
                     + " max(window_end_ms) AS end_ms, CAST(sum(queries) AS BIGINT) AS all_statements,"
                     + " CAST(sum(ok_queries) AS BIGINT) AS ok_statements,"
                     + " count(*) - count(ok_queries) AS rows_without_ok, max(p99_us) AS max_p99_us"
                     + " FROM w GROUP BY run_id, step_id, window_start_ms ORDER BY run_id, step_id, window_start_ms")) {
            while (rs.next()) {
                StepKey key = StepKey.read(rs);
                long start = rs.getLong("window_start_ms");
                Histogram h = merged.get(new WindowKey(key, start));
                // a window is of successful statements only if every row of it says how many there were
                Long ok = rs.getLong("rows_without_ok") == 0 ? rs.getLong("ok_statements") : null;
                out.computeIfAbsent(key, x -> new ArrayList<>()).add(new Window(start, rs.getLong("end_ms"),
                        rs.getLong("all_statements"), ok,
                        h != null ? h.getValueAtPercentile(99) : rs.getLong("max_p99_us")));
            }
        }
        return out;
    }

    /** One-second windows of a step from its raw samples by completion second, for steps without windows. */
    private static List<Window> sampleWindows(ArchiveDatabase db, String run, int step) throws SQLException {
        String sql = "SELECT (start_us + latency_us) // 1000000 AS sec, CAST(sum(queries) AS BIGINT) AS all_statements,"
                + " CAST(coalesce(sum(CASE WHEN status = 'ok' THEN queries ELSE greatest(queries - 1, 0) END), 0)"
                + " AS BIGINT) AS ok_statements, quantile_disc(latency_us, 0.99) AS p99 FROM " + ArchiveLayout.SAMPLES
                + " WHERE run_id = ? AND step_id = ? GROUP BY sec ORDER BY sec";
        List<Window> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            ps.setString(1, run);
            ps.setInt(2, step);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long sec = rs.getLong("sec");
                    out.add(new Window(sec * 1000, sec * 1000 + 1000, rs.getLong("all_statements"),
                            rs.getLong("ok_statements"), rs.getLong("p99")));
                }
            }
        }
        return out;
    }
}
