package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.report.Evidence.Probe;
import io.tailstream.reporter.report.Evidence.StepData;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads what the validity checks need of each step that the summary tables do not: the client's CPU figure, the
 * producer's client-bound flag, the RTT probe and the measured error share. Each comes from the {@code steps}
 * dataset's columns where they are set (NULL in files written before they existed), else from the raw control
 * events (the same figures, as the producer sent them), so older archives are judged on what they hold: without the
 * load generator's own CPU, the whole client process's figure stands in and is labelled as such.
 *
 * <p>Not thread safe (one DuckDB connection, as {@link ReportLoader}).
 */
final class EvidenceLoader {

    private EvidenceLoader() {}

    /**
     * What the archive says about one step.
     *
     * @param cpuPct          the client's CPU (% of its machine), or null
     * @param cpuSource       {@link StepData#LOAD_GEN} or {@link StepData#PROCESS}, null with {@code cpuPct}
     * @param clientBound     the producer flagged the step client-bound
     * @param probe           the RTT probe before the step, or null
     * @param measuredSamples measured transactions, or null without samples
     * @param measuredErrors  failed measured transactions, or null
     */
    record StepFacts(Double cpuPct, String cpuSource, boolean clientBound, Probe probe, Long measuredSamples,
                     Long measuredErrors) {}

    /** Per step of the selected runs (all of them, whatever the archive holds of each). */
    static Map<StepKey, StepFacts> load(ArchiveDatabase db, String inRuns) throws SQLException {
        Map<StepKey, Reported> steps = stepColumns(db, inRuns);
        Map<StepKey, Reported> events = db.has(ArchiveLayout.CONTROL) ? controlEvents(db, inRuns) : Map.of();
        Map<StepKey, long[]> measured = db.has(ArchiveLayout.SAMPLES) ? measured(db, inRuns) : Map.of();
        Map<StepKey, StepFacts> out = new HashMap<>();
        for (Map.Entry<StepKey, Reported> entry : steps.entrySet()) {
            Reported s = entry.getValue();
            Reported e = events.getOrDefault(entry.getKey(), Reported.NONE);
            // load generator: the step's own figure (steps column, else step_ended), else the mean of its
            // client_health events; in archives without it, the whole process's figure, labelled so
            Double loadGen = first(s.loadGenCpuPct(), e.loadGenCpuPct(), e.healthLoadGenCpuPct());
            Double process = first(s.processCpuPct(), e.processCpuPct(), e.healthProcessCpuPct());
            Double cpu = loadGen != null ? loadGen : process;
            String source = loadGen != null ? StepData.LOAD_GEN : process != null ? StepData.PROCESS : null;
            Boolean bound = s.clientBound() != null ? s.clientBound() : e.clientBound();
            boolean flagged = Boolean.TRUE.equals(bound) || Boolean.TRUE.equals(e.healthClientBound());
            Double p50 = first(s.rttP50Us(), e.rttP50Us());
            Double p99 = first(s.rttP99Us(), e.rttP99Us());
            Number samples = s.rttSamples() != null ? s.rttSamples() : e.rttSamples();
            String method = s.rttMethod() != null ? s.rttMethod() : e.rttMethod();
            Probe probe = p50 == null || p99 == null ? null
                    : new Probe(p50, p99, samples == null ? 0 : samples.intValue(), method);
            long[] m = measured.get(entry.getKey());
            out.put(entry.getKey(), new StepFacts(cpu, source, flagged, probe, m == null ? null : m[0],
                    m == null ? null : m[1]));
        }
        return out;
    }

    /**
     * What one source reports of a step, each null where it says nothing: the step's own figures (the
     * {@code steps} columns, or the {@code step_ended} and {@code step_started} events), and for the control
     * events also the {@code client_health} events' mean CPU and client-bound flag.
     */
    private record Reported(Boolean clientBound, Double loadGenCpuPct, Double processCpuPct, Double rttP50Us,
                            Double rttP99Us, Number rttSamples, String rttMethod, Double healthLoadGenCpuPct,
                            Double healthProcessCpuPct, Boolean healthClientBound) {
        static final Reported NONE = new Reported(null, null, null, null, null, null, null, null, null, null);
    }

    private static Double first(Double... values) {
        for (Double v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Map<StepKey, Reported> stepColumns(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = "SELECT run_id, step_id, client_bound, load_gen_cpu_pct, process_cpu_pct, rtt_p50_us,"
                + " rtt_p99_us, rtt_samples, rtt_method FROM " + ArchiveLayout.STEPS + " WHERE " + inRuns;
        return ResultSets.byStep(db, sql, rs -> new Reported((Boolean) rs.getObject("client_bound"),
                ResultSets.doubleOrNull(rs, "load_gen_cpu_pct"), ResultSets.doubleOrNull(rs, "process_cpu_pct"),
                ResultSets.doubleOrNull(rs, "rtt_p50_us"), ResultSets.doubleOrNull(rs, "rtt_p99_us"),
                (Number) rs.getObject("rtt_samples"), rs.getString("rtt_method"), null, null, null));
    }

    /**
     * Per step from the raw control events: step_ended CPU (load generator: highest over producers) and
     * client-bound (any producer), client_health mean CPU and client-bound (any event), the probes' median p50 and
     * p99, their samples and method.
     */
    private static Map<StepKey, Reported> controlEvents(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = """
                WITH c AS (SELECT run_id, step_id, type, event FROM control
                           WHERE %s AND step_id IS NOT NULL
                             AND type IN ('step_started', 'step_ended', 'client_health'))
                SELECT run_id, step_id,
                  max(CAST(event->>'$.loadGenCpuPct' AS DOUBLE)) FILTER (WHERE type = 'step_ended') AS load_gen,
                  max(CAST(event->>'$.processCpuPct' AS DOUBLE)) FILTER (WHERE type = 'step_ended') AS process,
                  avg(CAST(event->>'$.loadGenCpuPct' AS DOUBLE)) FILTER (WHERE type = 'client_health')
                    AS health_load_gen,
                  avg(CAST(event->>'$.processCpuPct' AS DOUBLE)) FILTER (WHERE type = 'client_health')
                    AS health_process,
                  bool_or(CAST(event->>'$.clientBound' AS BOOLEAN)) FILTER (WHERE type = 'step_ended') AS bound,
                  bool_or(CAST(event->>'$.clientBound' AS BOOLEAN)) FILTER (WHERE type = 'client_health')
                    AS health_bound,
                  median(CAST(event->>'$.rtt.p50Micros' AS DOUBLE)) FILTER (WHERE type = 'step_started') AS p50,
                  median(CAST(event->>'$.rtt.p99Micros' AS DOUBLE)) FILTER (WHERE type = 'step_started') AS p99,
                  sum(CAST(event->>'$.rtt.samples' AS BIGINT)) FILTER (WHERE type = 'step_started') AS samples,
                  min(event->>'$.rtt.method') FILTER (WHERE type = 'step_started') AS method
                FROM c GROUP BY run_id, step_id""".formatted(inRuns);
        return ResultSets.byStep(db, sql, rs -> new Reported((Boolean) rs.getObject("bound"),
                ResultSets.doubleOrNull(rs, "load_gen"), ResultSets.doubleOrNull(rs, "process"),
                ResultSets.doubleOrNull(rs, "p50"), ResultSets.doubleOrNull(rs, "p99"),
                (Number) rs.getObject("samples"), rs.getString("method"),
                ResultSets.doubleOrNull(rs, "health_load_gen"), ResultSets.doubleOrNull(rs, "health_process"),
                (Boolean) rs.getObject("health_bound")));
    }

    /** Per step: {measured transactions, failed ones}. */
    private static Map<StepKey, long[]> measured(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = "SELECT run_id, step_id, count(*) AS measured, count(*) FILTER (WHERE status <> 'ok') AS failed"
                + " FROM " + ArchiveLayout.SAMPLES + " WHERE " + inRuns + " AND NOT warmup GROUP BY run_id, step_id";
        return ResultSets.byStep(db, sql, rs -> new long[] {rs.getLong("measured"), rs.getLong("failed")});
    }
}
