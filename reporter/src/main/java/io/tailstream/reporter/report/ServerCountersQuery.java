package io.tailstream.reporter.report;

import io.tailstream.analysis.counters.CounterMove;
import io.tailstream.analysis.counters.CounterReadings;
import io.tailstream.analysis.counters.CounterSeries;
import io.tailstream.analysis.counters.ServerLines;
import io.tailstream.analysis.counters.StallExplanation;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.ServerCounters;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The server's side of the steps, from the {@code server_counters} dataset: what the counters did around each stall
 * ({@link StallExplanation}) and the lines of each step's server charts ({@link ServerChart}). A step's readings are
 * its first producer's (the lowest id that read any): producers sharing a step read the same server. Stateless.
 */
final class ServerCountersQuery {

    /** What the charts read ({@link ServerLines}): the sessions running and waiting, the inputs of the two ratios. */
    private static final String CHART_NAMES = "c.name IN (" + ServerLines.NAMES.stream()
            .map(ArchiveDatabase::sqlString).collect(Collectors.joining(", ")) + ")"
            + ServerLines.PREFIXES.stream().map(p -> " OR starts_with(c.name, " + ArchiveDatabase.sqlString(p) + ")")
            .collect(Collectors.joining());

    private ServerCountersQuery() {}

    /** The step's readings of its first producer, as {@code c}, limited to the selected runs. */
    private static String readings(String inRuns) {
        return "(SELECT * FROM " + ArchiveLayout.SERVER_COUNTERS + " WHERE " + inRuns + ") c JOIN (SELECT run_id,"
                + " step_id, min(producer_id) AS producer_id FROM " + ArchiveLayout.SERVER_COUNTERS + " WHERE "
                + inRuns + " GROUP BY ALL) f USING (run_id, step_id, producer_id)";
    }

    /** {@code stalls}, each with what the server's counters did around it. */
    static List<Stall> explain(ArchiveDatabase db, String inRuns, List<Stall> stalls) throws SQLException {
        if (stalls.isEmpty()) {
            return stalls;
        }
        Map<Integer, CounterReadings> around = new HashMap<>();
        if (db.has(ArchiveLayout.SERVER_COUNTERS)) {
            StringBuilder windows = new StringBuilder();
            for (int i = 0; i < stalls.size(); i++) {
                Stall s = stalls.get(i);
                // the baseline, the reading before it (a counter's first rate), the stall, the reading after it
                windows.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "(%d, %s, %d, %d, %d)", i,
                        ArchiveDatabase.sqlString(s.runId()), s.stepId(),
                        s.startMs() - StallExplanation.LOOKBACK_MS - 2_000, s.endMs() + 2_000));
            }
            String sql = "WITH w(i, run_id, step_id, lo, hi) AS (VALUES " + windows + ") SELECT w.i, c.at_ms,"
                    + " c.name, c.kind, c.value, c.error FROM " + readings(inRuns) + " JOIN w ON c.run_id = w.run_id"
                    + " AND c.step_id = w.step_id AND c.at_ms BETWEEN w.lo AND w.hi ORDER BY w.i, c.at_ms";
            try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    add(around.computeIfAbsent(rs.getInt("i"), k -> new CounterReadings()), rs);
                }
            }
        }
        List<Stall> out = new ArrayList<>(stalls.size());
        for (int i = 0; i < stalls.size(); i++) {
            Stall s = stalls.get(i);
            CounterReadings r = around.get(i);
            StallExplanation.Explanation e = StallExplanation.explain(r == null ? List.of() : r.series(),
                    s.startMs(), s.endMs());
            out.add(s.withServer(e.moves().stream().map(CounterMove::describe).toList(), e.refusal()));
        }
        return out;
    }

    /** Per step with readings, its server charts. */
    static Map<StepKey, ServerChart> charts(ArchiveDatabase db, String inRuns) throws SQLException {
        Map<StepKey, CounterReadings> bySteps = new LinkedHashMap<>();
        if (!db.has(ArchiveLayout.SERVER_COUNTERS)) {
            return Map.of();
        }
        String sql = "SELECT c.run_id, c.step_id, c.at_ms, c.name, c.kind, c.value, c.error FROM " + readings(inRuns)
                + " WHERE " + CHART_NAMES + " OR c.error IS NOT NULL"
                + " ORDER BY c.run_id, c.step_id, c.at_ms";
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                add(bySteps.computeIfAbsent(StepKey.read(rs), k -> new CounterReadings()), rs);
            }
        }
        Map<StepKey, ServerChart> out = new HashMap<>();
        bySteps.forEach((k, r) -> {
            ServerChart c = chart(r.series());
            if (!c.isEmpty()) {
                out.put(k, c);
            }
        });
        return out;
    }

    private static void add(CounterReadings r, ResultSet rs) throws SQLException {
        long at = rs.getLong("at_ms");
        if (rs.getString("error") != null) {
            r.reading(at, false);
        } else if (rs.getString("name") != null) {
            r.value(at, rs.getString("name"), ServerCounters.COUNTER.equals(rs.getString("kind")),
                    rs.getLong("value"));
        }
    }

    /** The chart lines of one step's series ({@link ServerLines}), down-sampled. */
    static ServerChart chart(List<CounterSeries> series) {
        ServerLines.Lines lines = ServerLines.of(series);
        return new ServerChart(lines.sessions().stream().map(ServerCountersQuery::line).toList(),
                lines.pressure().stream().map(ServerCountersQuery::line).toList());
    }

    /** A line down-sampled like the step's own series, its lowest and highest point per bucket kept. */
    private static ServerChart.Line line(ServerLines.Line l) {
        long[] atMs = l.atMs();
        double[] values = l.values();
        int[] keep = Downsample.minMax(values, Downsample.DEFAULT_BUCKETS);
        double[] t = new double[keep.length];
        for (int i = 0; i < keep.length; i++) {
            t[i] = atMs[keep[i]] / 1000.0;
        }
        return new ServerChart.Line(l.label(), t, Downsample.pick(values, keep));
    }
}
