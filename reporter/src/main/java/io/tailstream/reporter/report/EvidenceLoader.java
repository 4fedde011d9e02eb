package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.report.ReportChecks.Probe;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads what the validity checks need of each step that the summary tables do not: the client's CPU figure, the
 * producer's client-bound flag, the RTT probe and the measured error share. Each comes from the {@code steps}
 * dataset's columns when the archive has them, else from the raw control events (the same figures, as the
 * producer sent them), so older archives are judged on what they hold: without the load generator's own CPU, the
 * whole client process's figure stands in and is labelled as such.
 *
 * <p>Not thread safe (one DuckDB connection, as {@link ReportLoader}).
 */
final class EvidenceLoader {

    private EvidenceLoader() {}

    /**
     * What the archive says about one step (key run/step).
     *
     * @param cpuPct          the client's CPU (% of its machine), or null
     * @param cpuSource       {@link ReportChecks#LOAD_GEN} or {@link ReportChecks#PROCESS}, null with {@code cpuPct}
     * @param clientBound     the producer flagged the step client-bound
     * @param probe           the RTT probe before the step, or null
     * @param measuredSamples measured transactions, or null without samples
     * @param measuredErrors  failed measured transactions, or null
     */
    record StepFacts(Double cpuPct, String cpuSource, boolean clientBound, Probe probe, Long measuredSamples,
                     Long measuredErrors) {}

    static Map<String, StepFacts> load(ArchiveDatabase db, String inRuns) throws SQLException {
        Map<String, Object[]> steps = stepColumns(db, inRuns);
        Map<String, Object[]> events = db.has(ArchiveLayout.CONTROL) ? controlEvents(db, inRuns) : Map.of();
        Map<String, long[]> measured = db.has(ArchiveLayout.SAMPLES) ? measured(db, inRuns) : Map.of();
        Map<String, StepFacts> out = new HashMap<>();
        for (String key : steps.keySet()) {
            Object[] s = steps.get(key);
            Object[] e = events.getOrDefault(key, new Object[11]);
            // load generator: the step's own figure (steps column, else step_ended), else the mean of its
            // client_health events; in archives without it, the whole process's figure, labelled so
            Double loadGen = first(s[1], e[0], e[2]);
            Double process = first(s[2], e[1], e[3]);
            Double cpu = loadGen != null ? loadGen : process;
            String source = loadGen != null ? ReportChecks.LOAD_GEN : process != null ? ReportChecks.PROCESS : null;
            Boolean bound = s[0] != null ? (Boolean) s[0] : (Boolean) e[4];
            boolean flagged = Boolean.TRUE.equals(bound) || Boolean.TRUE.equals(e[5]);
            Double p50 = first(s[3], e[6]);
            Double p99 = first(s[4], e[7]);
            Number samples = (Number) (s[5] != null ? s[5] : e[8]);
            String method = (String) (s[6] != null ? s[6] : e[9]);
            Probe probe = p50 == null || p99 == null ? null
                    : new Probe(p50, p99, samples == null ? 0 : samples.intValue(), method);
            long[] m = measured.get(key);
            out.put(key, new StepFacts(cpu, source, flagged, probe, m == null ? null : m[0], m == null ? null : m[1]));
        }
        return out;
    }

    private static Double first(Object... values) {
        for (Object v : values) {
            if (v != null) {
                return ((Number) v).doubleValue();
            }
        }
        return null;
    }

    /** Columns of the steps dataset that newer archives have: {client_bound, load-gen, process, p50, p99, n, method}. */
    private static Map<String, Object[]> stepColumns(ArchiveDatabase db, String inRuns) throws SQLException {
        Set<String> have = columns(db, ArchiveLayout.STEPS);
        String[] wanted = {"client_bound", "load_gen_cpu_pct", "process_cpu_pct", "rtt_p50_us", "rtt_p99_us",
                "rtt_samples", "rtt_method"};
        StringBuilder sql = new StringBuilder("SELECT run_id, step_id");
        for (String c : wanted) {
            sql.append(", ").append(have.contains(c) ? c : "NULL");
        }
        sql.append(" FROM steps WHERE ").append(inRuns);
        Map<String, Object[]> out = new HashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                Object[] v = new Object[wanted.length];
                for (int i = 0; i < wanted.length; i++) {
                    v[i] = rs.getObject(3 + i);
                }
                out.put(rs.getString(1) + "/" + rs.getInt(2), v);
            }
        }
        return out;
    }

    /**
     * Per step from the raw control events: {step_ended load-gen (highest over producers), step_ended process,
     * client_health mean load-gen, client_health mean process, step_ended client-bound (any producer),
     * client_health client-bound (any event), probe median p50, probe median p99, probe samples, probe method}.
     */
    private static Map<String, Object[]> controlEvents(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = """
                WITH c AS (SELECT run_id, step_id, type, event FROM control
                           WHERE %s AND step_id IS NOT NULL
                             AND type IN ('step_started', 'step_ended', 'client_health'))
                SELECT run_id, step_id,
                  max(CAST(event->>'$.loadGenCpuPct' AS DOUBLE)) FILTER (WHERE type = 'step_ended'),
                  max(CAST(event->>'$.processCpuPct' AS DOUBLE)) FILTER (WHERE type = 'step_ended'),
                  avg(CAST(event->>'$.loadGenCpuPct' AS DOUBLE)) FILTER (WHERE type = 'client_health'),
                  avg(CAST(event->>'$.processCpuPct' AS DOUBLE)) FILTER (WHERE type = 'client_health'),
                  bool_or(CAST(event->>'$.clientBound' AS BOOLEAN)) FILTER (WHERE type = 'step_ended'),
                  bool_or(CAST(event->>'$.clientBound' AS BOOLEAN)) FILTER (WHERE type = 'client_health'),
                  median(CAST(event->>'$.rtt.p50Micros' AS DOUBLE)) FILTER (WHERE type = 'step_started'),
                  median(CAST(event->>'$.rtt.p99Micros' AS DOUBLE)) FILTER (WHERE type = 'step_started'),
                  sum(CAST(event->>'$.rtt.samples' AS BIGINT)) FILTER (WHERE type = 'step_started'),
                  min(event->>'$.rtt.method') FILTER (WHERE type = 'step_started')
                FROM c GROUP BY ALL""".formatted(inRuns);
        Map<String, Object[]> out = new HashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                Object[] v = new Object[11];
                for (int i = 0; i < 10; i++) {
                    v[i] = rs.getObject(3 + i);
                }
                out.put(rs.getString(1) + "/" + rs.getInt(2), v);
            }
        }
        return out;
    }

    /** Per step: {measured transactions, failed ones}. */
    private static Map<String, long[]> measured(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = "SELECT run_id, step_id, count(*), count(*) FILTER (WHERE status <> 'ok') FROM samples WHERE "
                + inRuns + " AND NOT warmup GROUP BY ALL";
        Map<String, long[]> out = new HashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1) + "/" + rs.getInt(2), new long[] {rs.getLong(3), rs.getLong(4)});
            }
        }
        return out;
    }

    private static Set<String> columns(ArchiveDatabase db, String view) throws SQLException {
        Set<String> out = new TreeSet<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + view)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
