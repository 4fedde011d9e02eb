package io.tailstream.reporter.query;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.StepFigure.Latencies;
import io.tailstream.reporter.query.StepFigure.StepRef;
import io.tailstream.schemas.event.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Computes {@link StepFigure}s exactly from the archive's raw samples: the one computation behind {@code compare},
 * the report's summary tables and their json/csv/md forms. Definitions (docs/report.md):
 * <ul>
 *   <li>measured samples are those not flagged warm-up;</li>
 *   <li>a step's measured span is {@code measure_end_us - measure_start_us} from the {@code steps} dataset, or,
 *       in archives without those boundaries, the span of its measured samples (first start to last completion);
 *       pooled figures divide by the sum of their steps' spans;</li>
 *   <li>QPS and TPS count successful samples ({@code status = 'ok'}) only: their statements and their number;
 *       errors are a rate of their own with a count per class;</li>
 *   <li>latency statistics of successful and of failed samples are computed apart, by nearest rank
 *       ({@code quantile_disc}), so failures never enter the percentiles or the mean of the work done;</li>
 *   <li>completed steps of a key are pooled; a step that did not complete (failed, interrupted, never ended) is
 *       never pooled with them but gets figures of its own, marked with its outcome.</li>
 * </ul>
 * Stateless and thread safe; the {@link ArchiveDatabase} it reads is not.
 */
public final class StepFigures {

    private StepFigures() {}

    /** Whether figures pool the steps of a key within each run, or across all the runs given. */
    public enum Pooling {
        /** One set of figures per run and key ({@code compare}). */
        PER_RUN,
        /** One set of figures per key over every run given (the report). */
        ACROSS_RUNS
    }

    /** Ops whose mean latency is RAL (reads), for YCSB-like workloads. */
    public static final List<String> READ_OPS = List.of("read");
    /** Ops whose mean latency is WAL (writes). */
    public static final List<String> WRITE_OPS = List.of("update", "insert", "write", "read_modify_write");

    // The measured samples are read once (materialized). One aggregation gives each pooled key, another each step
    // of the keys that pool several (a key of one step is that step's figures: no second sort); one sort per group
    // for the five percentiles of successful samples (a list argument shares it). A last pass over the successful
    // samples above each key's P99.9 gives the slowest 0.1%'s share of latency time.
    // %1$s: the run ids as literals (DuckDB prunes hive partitions only for constants); %2$s: the pooling run key.
    private static final String SQL = """
            WITH st AS (
              SELECT run_id, step_id, target, workload, threads, round, started_at_ms, outcome,
                     CASE WHEN measure_end_us > measure_start_us THEN measure_end_us - measure_start_us END AS exact_us
              FROM steps WHERE run_id IN (%1$s)),
            m AS MATERIALIZED (
              SELECT s.run_id, s.step_id, %2$s AS run_key, st.target, st.workload, st.threads,
                     CASE WHEN st.outcome = 'completed' THEN '' ELSE s.run_id || '/' || s.step_id END AS part,
                     s.latency_us, s.status = 'ok' AS ok, s.status, s.queries, s.op, s.start_us,
                     s.start_us + s.latency_us AS end_us
              FROM samples s JOIN st ON s.run_id = st.run_id AND s.step_id = st.step_id
              WHERE NOT s.warmup AND s.run_id IN (%1$s)),
            per_step AS (
              SELECT m.run_id, m.step_id, any_value(m.run_key) AS run_key, any_value(m.workload) AS workload,
                     any_value(m.target) AS target, any_value(m.threads) AS threads, any_value(m.part) AS part,
                     coalesce(any_value(st.exact_us), max(m.end_us) - min(m.start_us)) AS span_us,
                     any_value(st.exact_us) IS NOT NULL AS exact, any_value(st.round) AS round,
                     any_value(st.outcome) AS outcome, any_value(st.started_at_ms) AS started_at_ms
              FROM m JOIN st ON m.run_id = st.run_id AND m.step_id = st.step_id
              GROUP BY m.run_id, m.step_id),
            grp AS (
              SELECT run_key, workload, target, threads, part, sum(span_us) AS span_us, bool_and(exact) AS exact,
                     count(*) AS steps, any_value(run_id) AS one_run, any_value(step_id) AS one_step,
                     any_value(round) AS one_round, any_value(outcome) AS one_outcome
              FROM per_step GROUP BY ALL),
            agg AS (
              SELECT run_key, workload, target, threads, part, NULL AS run_id, NULL AS step_id, true AS pooled, %5$s
              FROM m GROUP BY run_key, workload, target, threads, part
              UNION ALL
              -- each step alone, only where a key pools several: one step's figures are its key's
              SELECT run_key, workload, target, threads, part, run_id, step_id, false AS pooled, %5$s
              FROM m SEMI JOIN (SELECT * FROM grp WHERE steps > 1) g USING (run_key, workload, target, threads, part)
              GROUP BY run_key, workload, target, threads, part, run_id, step_id),
            thr AS (
              SELECT run_key, workload, target, threads, part, ok_q[4] AS p999 FROM agg
              WHERE pooled AND ok_q IS NOT NULL),
            tail AS (
              SELECT t.run_key, t.workload, t.target, t.threads, t.part,
                     CAST(sum(m.latency_us) AS BIGINT) AS above_sum, count(*) AS above_n
              FROM m JOIN thr t ON m.run_key = t.run_key AND m.workload = t.workload AND m.target = t.target
                   AND m.threads = t.threads AND m.part = t.part AND m.latency_us > t.p999
              -- most samples are below every key's P99.9: a scalar test drops them before the join
              WHERE m.ok AND m.latency_us > (SELECT min(p999) FROM thr)
              GROUP BY ALL)
            SELECT a.run_key, a.workload, a.target, a.threads, a.part, a.pooled, a.run_id, a.step_id,
                   a.n, a.n_ok, a.ok_queries, a.errors_by_class,
                   a.ok_mean, a.ok_q[1], a.ok_q[2], a.ok_q[3], a.ok_q[4], a.ok_q[5], a.ok_max, a.ok_sum,
                   a.err_mean, a.err_q[1], a.err_q[2], a.err_q[3], a.err_q[4], a.err_q[5], a.err_max,
                   a.read_mean, a.write_mean,
                   CASE WHEN a.pooled THEN g.span_us ELSE p.span_us END,
                   CASE WHEN a.pooled THEN g.exact ELSE p.exact END,
                   t.above_sum, t.above_n, p.round, p.outcome,
                   g.steps, g.one_run, g.one_step, g.one_round, g.one_outcome
            FROM agg a
            LEFT JOIN per_step p ON NOT a.pooled AND p.run_id = a.run_id AND p.step_id = a.step_id
            LEFT JOIN grp g ON a.pooled AND g.run_key = a.run_key AND g.workload = a.workload
                 AND g.target = a.target AND g.threads = a.threads AND g.part = a.part
            LEFT JOIN tail t ON a.pooled AND t.run_key = a.run_key AND t.workload = a.workload
                 AND t.target = a.target AND t.threads = a.threads AND t.part = a.part
            ORDER BY a.run_key, a.workload, a.target, a.threads, a.part <> '', a.part, a.pooled, p.started_at_ms,
                     a.run_id, a.step_id
            """;

    /** The figures computed for a pooled key and for each of its steps (%3$s, %4$s: read and write ops). */
    private static final String AGGREGATES = """
            count(*) AS n, count(*) FILTER (WHERE ok) AS n_ok,
                     CAST(sum(CASE WHEN ok THEN queries ELSE greatest(queries - 1, 0) END) AS BIGINT) AS ok_queries,
                     CAST(to_json(histogram(status) FILTER (WHERE NOT ok)) AS VARCHAR) AS errors_by_class,
                     avg(latency_us) FILTER (WHERE ok) AS ok_mean,
                     quantile_disc(latency_us, [0.5, 0.95, 0.99, 0.999, 0.9999]) FILTER (WHERE ok) AS ok_q,
                     max(latency_us) FILTER (WHERE ok) AS ok_max,
                     CAST(sum(latency_us) FILTER (WHERE ok) AS BIGINT) AS ok_sum,
                     avg(latency_us) FILTER (WHERE NOT ok) AS err_mean,
                     quantile_disc(latency_us, [0.5, 0.95, 0.99, 0.999, 0.9999]) FILTER (WHERE NOT ok) AS err_q,
                     max(latency_us) FILTER (WHERE NOT ok) AS err_max,
                     avg(latency_us) FILTER (WHERE ok AND op IN (%3$s)) AS read_mean,
                     avg(latency_us) FILTER (WHERE ok AND op IN (%4$s)) AS write_mean""";

    /** Per-run figures of every (target, workload, threads) of the given runs that has measured samples. */
    public static List<StepFigure> of(ArchiveDatabase db, Collection<String> runIds) throws SQLException {
        return of(db, runIds, Pooling.PER_RUN);
    }

    /**
     * Figures of every (target, workload, threads) of the given runs that has measured samples: per key the
     * completed steps pooled (first), then each step that did not complete on its own; ordered by run (for
     * {@link Pooling#PER_RUN}), workload, target and threads.
     */
    public static List<StepFigure> of(ArchiveDatabase db, Collection<String> runIds, Pooling pooling)
            throws SQLException {
        if (runIds.isEmpty() || !db.has(ArchiveLayout.SAMPLES) || !db.has(ArchiveLayout.STEPS)) {
            return List.of();
        }
        String runs = runIds.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", "));
        String sql = SQL.formatted(runs, pooling == Pooling.PER_RUN ? "s.run_id" : "''", list(READ_OPS),
                list(WRITE_OPS), AGGREGATES.formatted(runs, "", list(READ_OPS), list(WRITE_OPS)));
        List<StepFigure> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            List<StepFigure> steps = new ArrayList<>();
            while (rs.next()) {
                if (!rs.getBoolean(6)) {
                    // the steps of a key that pools several come before it (ORDER BY pooled)
                    steps.add(figure(rs, pooling, List.of(), null));
                    continue;
                }
                StepRef only = steps.isEmpty() ? new StepRef(rs.getString(37), rs.getInt(38), rs.getInt(39),
                        rs.getString(40)) : null;
                StepFigure f = figure(rs, pooling, steps, only);
                out.add(only == null ? f : withStep(f, alone(f, only)));
                steps = new ArrayList<>();
            }
        }
        return out;
    }

    private static String list(List<String> values) {
        return values.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", "));
    }

    /**
     * The figures of the current row: a key pooling {@code steps} (or the one step {@code only}), or one step of a
     * key that pools several.
     */
    private static StepFigure figure(ResultSet rs, Pooling pooling, List<StepFigure> steps, StepRef only)
            throws SQLException {
        boolean pooled = rs.getBoolean(6);
        String runKey = rs.getString(1);
        String part = rs.getString(5);
        long n = rs.getLong(9);
        long okN = rs.getLong(10);
        long queries = rs.getLong(11);
        double seconds = rs.getLong(30) / 1e6;
        boolean exact = rs.getBoolean(31);
        List<StepRef> refs = !pooled
                ? List.of(new StepRef(rs.getString(7), rs.getInt(8), rs.getInt(34), rs.getString(35)))
                : only != null ? List.of(only) : steps.stream().flatMap(s -> s.steps().stream()).toList();
        // a step that did not complete stands alone (part is its run/step): its figures carry its outcome
        String outcome = part.isEmpty() ? null
                : refs.get(0).outcome() == null ? StepFigure.NOT_ENDED : refs.get(0).outcome();
        Latencies ok = okN == 0 ? null : latencies(rs, okN, 13, pooled ? slowest(rs, okN) : null);
        Latencies failed = n == okN ? null : latencies(rs, n - okN, 21, null);
        return new StepFigure(pooled ? (pooling == Pooling.PER_RUN ? runKey : null) : rs.getString(7),
                rs.getString(3), rs.getString(2), rs.getInt(4), refs, outcome, n, n - okN,
                errorsByClass(rs.getString(12)), seconds, exact, queries, rate(queries, seconds), rate(okN, seconds),
                rate(n - okN, seconds), ok, failed, (Double) rs.getObject(28), (Double) rs.getObject(29),
                pooled ? steps : List.of());
    }

    /** A key's figures of its one step, as that step's own: its run, no slowest-0.1% share. */
    private static StepFigure alone(StepFigure f, StepRef step) {
        return new StepFigure(step.runId(), f.target(), f.workload(), f.threads(), List.of(step), f.outcome(),
                f.samples(), f.errors(), f.errorsByClass(), f.seconds(), f.exactSpan(), f.queries(), f.qps(), f.tps(),
                f.errorsPerSecond(), withoutShare(f.ok()), withoutShare(f.failed()), f.readMeanUs(), f.writeMeanUs(),
                List.of());
    }

    private static Latencies withoutShare(Latencies l) {
        return l == null ? null : new Latencies(l.count(), l.meanUs(), l.p50Us(), l.p95Us(), l.p99Us(), l.p999Us(),
                l.p9999Us(), l.maxUs(), l.slowestCount(), null);
    }

    private static StepFigure withStep(StepFigure f, StepFigure step) {
        return new StepFigure(f.runId(), f.target(), f.workload(), f.threads(), f.steps(), f.outcome(), f.samples(),
                f.errors(), f.errorsByClass(), f.seconds(), f.exactSpan(), f.queries(), f.qps(), f.tps(),
                f.errorsPerSecond(), f.ok(), f.failed(), f.readMeanUs(), f.writeMeanUs(), List.of(step));
    }

    /** Mean, five percentiles and max from column {@code from} on. */
    private static Latencies latencies(ResultSet rs, long count, int from, long[] slowest) throws SQLException {
        Double share = slowest == null || slowest[0] == 0 ? null
                : rs.getLong(20) == 0 ? 0.0 : slowest[1] * 100.0 / rs.getLong(20);
        return new Latencies(count, rs.getDouble(from), rs.getLong(from + 1), rs.getLong(from + 2),
                rs.getLong(from + 3), rs.getLong(from + 4), rs.getLong(from + 5), rs.getLong(from + 6),
                slowest == null ? count / 1000 : slowest[0], share);
    }

    /**
     * The slowest {@code k = floor(n / 1000)} successful samples and the sum of their latencies: the samples ranked
     * above the P99.9 (which is at rank {@code n - k}), i.e. every sample above the P99.9 value plus as many equal to
     * it as make up {@code k}. Exact, without sorting the samples again.
     */
    private static long[] slowest(ResultSet rs, long n) throws SQLException {
        long k = n / 1000;
        long p999 = rs.getLong(17);
        long aboveSum = rs.getLong(32);
        long aboveN = rs.getLong(33);
        if (aboveN > k) {
            throw new IllegalStateException("more samples above the P99.9 (" + aboveN + ") than ranked above it ("
                    + k + ") of " + n + ": quantile_disc is not nearest-rank here");
        }
        return new long[] {k, aboveSum + (k - aboveN) * p999};
    }

    private static Map<String, Long> errorsByClass(String json) {
        if (json == null) {
            return Map.of();
        }
        return new TreeMap<>(Json.MAPPER.convertValue(Json.read(json, JsonNode.class),
                new TypeReference<Map<String, Long>>() { }));
    }

    private static double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }
}
