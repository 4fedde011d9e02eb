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
 *       (the value at rank {@code ceil(p × n)}, DuckDB's {@code quantile_disc}), so failures never enter the
 *       percentiles or the mean of the work done;</li>
 *   <li>completed steps of a key are pooled, a completed step without a measured sample included (its span counts,
 *       with no work done); a step that did not complete (failed, interrupted, never ended) is never pooled with
 *       them but gets figures of its own, marked with its outcome.</li>
 * </ul>
 * Stateless and thread safe; the {@link ArchiveDatabase} it reads is not.
 */
public final class StepFigureQuery {

    private StepFigureQuery() {}

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

    // The measured samples are read once, into counts per (run, step, status, op, latency): a hash aggregation whose
    // result is small (a step has thousands of distinct microsecond latencies, not millions), where a sort per group
    // of every latency cost seconds per ten million samples. Percentiles are nearest-rank over the cumulative counts
    // in integer arithmetic; means, sums, maxima and error classes are sums over the counts. Each figure is computed
    // per pooled key and, where a key pools several steps, per step (a key of one step is that step's figures).
    // %1$s: the run ids as literals (DuckDB prunes hive partitions only for constants); %2$s: whether figures pool
    // per run (true: a key's run key is its run id) or across runs (false: ''); %3$s, %4$s: read and write ops;
    // %5$s: which counts are completed New-Orders (TpccSamples).
    private static final String SQL = """
            WITH st AS (
              SELECT run_id, step_id, target, workload, threads, round, started_at_ms, outcome, measure_start_us,
                     CASE WHEN measure_end_us > measure_start_us THEN measure_end_us - measure_start_us END AS exact_us
              FROM steps WHERE run_id IN (%1$s)),
            c AS MATERIALIZED (
              SELECT s.run_id, s.step_id, s.status, s.op, s.latency_us, count(*) AS n,
                     sum(s.latency_us) AS lat_sum,
                     sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS queries,
                     min(s.start_us) AS first_start_us, max(s.start_us + s.latency_us) AS last_end_us
              FROM samples s SEMI JOIN st ON s.run_id = st.run_id AND s.step_id = st.step_id
              WHERE NOT s.warmup AND s.run_id IN (%1$s)
              GROUP BY s.run_id, s.step_id, s.status, s.op, s.latency_us),
            m AS (
              SELECT c.run_id, c.step_id, CASE WHEN %2$s THEN c.run_id ELSE '' END AS run_key, st.target, st.workload,
                     st.threads,
                     CASE WHEN st.outcome = 'completed' THEN '' ELSE c.run_id || '/' || c.step_id END AS part,
                     c.status, c.status = 'ok' AS ok, c.op, c.latency_us, c.n, c.lat_sum, c.queries,
                     c.first_start_us, c.last_end_us
              FROM c JOIN st ON c.run_id = st.run_id AND c.step_id = st.step_id),
            spans AS (
              SELECT run_id, step_id, min(first_start_us) AS first_start_us, max(last_end_us) AS last_end_us
              FROM c GROUP BY run_id, step_id),
            -- every step with measured samples, and every completed step without one: a round that measured no
            -- work counts in its key's span (and rounds) with nothing done, rather than being left out
            per_step AS (
              SELECT st.run_id, st.step_id, CASE WHEN %2$s THEN st.run_id ELSE '' END AS run_key, st.workload,
                     st.target, st.threads,
                     CASE WHEN st.outcome = 'completed' THEN '' ELSE st.run_id || '/' || st.step_id END AS part,
                     coalesce(st.exact_us, x.last_end_us - x.first_start_us, 0) AS span_us,
                     CASE WHEN st.exact_us IS NOT NULL THEN st.measure_start_us ELSE x.first_start_us END AS from_us,
                     st.exact_us IS NOT NULL AS exact, st.round, st.outcome, st.started_at_ms,
                     x.run_id IS NOT NULL AS sampled
              FROM st LEFT JOIN spans x ON x.run_id = st.run_id AND x.step_id = st.step_id
              WHERE x.run_id IS NOT NULL OR st.outcome = 'completed'),
            grp AS (
              SELECT run_key, workload, target, threads, part, sum(span_us) AS span_us, bool_and(exact) AS exact,
                     count(*) AS steps, count(*) FILTER (WHERE sampled) AS sampled_steps,
                     any_value(run_id) AS one_run, any_value(step_id) AS one_step,
                     any_value(round) AS one_round, any_value(outcome) AS one_outcome, any_value(from_us) AS one_from,
                     any_value(from_us + span_us) AS one_to
              FROM per_step GROUP BY ALL),
            -- the counts once per pooled key and once per step of the keys that pool several
            g AS (
              SELECT run_key, workload, target, threads, part, true AS pooled, NULL AS run_id, NULL AS step_id,
                     status, ok, op, latency_us, n, lat_sum, queries
              FROM m
              UNION ALL
              SELECT run_key, workload, target, threads, part, false AS pooled, run_id, step_id,
                     status, ok, op, latency_us, n, lat_sum, queries
              FROM m SEMI JOIN (SELECT * FROM grp WHERE steps > 1) USING (run_key, workload, target, threads, part)
              UNION ALL
              -- the steps without a measured sample of keys that pool several and have some: a row counting nothing
              SELECT p.run_key, p.workload, p.target, p.threads, p.part, false, p.run_id, p.step_id,
                     NULL, NULL, NULL, NULL, 0, 0, 0
              FROM per_step p JOIN grp ON grp.run_key = p.run_key AND grp.workload = p.workload
                   AND grp.target = p.target AND grp.threads = p.threads AND grp.part = p.part
              WHERE NOT p.sampled AND grp.steps > 1 AND grp.sampled_steps > 0),
            agg AS (
              SELECT run_key, workload, target, threads, part, pooled, run_id, step_id,
                     CAST(sum(n) AS BIGINT) AS n, CAST(coalesce(sum(n) FILTER (WHERE ok), 0) AS BIGINT) AS n_ok,
                     CAST(sum(queries) AS BIGINT) AS ok_queries,
                     CAST(sum(lat_sum) FILTER (WHERE ok) AS BIGINT) AS ok_sum,
                     max(latency_us) FILTER (WHERE ok) AS ok_max,
                     sum(lat_sum) FILTER (WHERE NOT ok) AS err_sum,
                     max(latency_us) FILTER (WHERE NOT ok) AS err_max,
                     CAST(sum(lat_sum) FILTER (WHERE ok AND op IN (%3$s)) AS DOUBLE)
                         / sum(n) FILTER (WHERE ok AND op IN (%3$s)) AS read_mean,
                     CAST(sum(lat_sum) FILTER (WHERE ok AND op IN (%4$s)) AS DOUBLE)
                         / sum(n) FILTER (WHERE ok AND op IN (%4$s)) AS write_mean,
                     CAST(coalesce(sum(n) FILTER (WHERE %5$s), 0) AS BIGINT) AS new_orders
              FROM g GROUP BY ALL),
            errs AS (
              SELECT run_key, workload, target, threads, part, pooled, run_id, step_id,
                     CAST(to_json(map(list(status), list(n))) AS VARCHAR) AS errors_by_class
              FROM (SELECT run_key, workload, target, threads, part, pooled, run_id, step_id, status,
                           CAST(sum(n) AS BIGINT) AS n
                    FROM g WHERE NOT ok GROUP BY ALL)
              GROUP BY ALL),
            -- nearest rank: the smallest latency whose cumulative count reaches ceil(p x n), i.e. upto >= p x n
            cum AS (
              SELECT run_key, workload, target, threads, part, pooled, run_id, step_id, ok, latency_us, n,
                     sum(n) OVER (PARTITION BY run_key, workload, target, threads, part, pooled, run_id, step_id, ok
                                  ORDER BY latency_us ROWS UNBOUNDED PRECEDING) AS upto,
                     sum(n) OVER (PARTITION BY run_key, workload, target, threads, part, pooled, run_id, step_id, ok)
                         AS total
              FROM (SELECT run_key, workload, target, threads, part, pooled, run_id, step_id, ok, latency_us,
                           sum(n) AS n
                    FROM g GROUP BY ALL)),
            q AS (
              SELECT run_key, workload, target, threads, part, pooled, run_id, step_id, ok,
                     min(latency_us) FILTER (WHERE upto * 10000 >= total * 5000) AS p50,
                     min(latency_us) FILTER (WHERE upto * 10000 >= total * 9500) AS p95,
                     min(latency_us) FILTER (WHERE upto * 10000 >= total * 9900) AS p99,
                     min(latency_us) FILTER (WHERE upto * 10000 >= total * 9990) AS p999,
                     min(latency_us) FILTER (WHERE upto * 10000 >= total * 9999) AS p9999
              FROM cum GROUP BY ALL),
            -- the successful samples above each pooled key's P99.9: the share of latency time of the slowest 0.1%%
            tail AS (
              SELECT c.run_key, c.workload, c.target, c.threads, c.part,
                     CAST(sum(c.latency_us * c.n) AS BIGINT) AS above_sum, CAST(sum(c.n) AS BIGINT) AS above_n
              FROM cum c JOIN q ON c.run_key = q.run_key AND c.workload = q.workload AND c.target = q.target
                   AND c.threads = q.threads AND c.part = q.part AND q.pooled AND q.ok
              WHERE c.pooled AND c.ok AND c.latency_us > q.p999
              GROUP BY ALL)
            SELECT a.run_key, a.workload, a.target, a.threads, a.part, a.pooled, a.run_id, a.step_id,
                   a.n, a.n_ok, a.ok_queries, e.errors_by_class,
                   CAST(a.ok_sum AS DOUBLE) / nullif(a.n_ok, 0), qo.p50, qo.p95, qo.p99, qo.p999, qo.p9999, a.ok_max,
                   a.ok_sum,
                   CAST(a.err_sum AS DOUBLE) / nullif(a.n - a.n_ok, 0), qe.p50, qe.p95, qe.p99, qe.p999, qe.p9999,
                   a.err_max,
                   a.read_mean, a.write_mean,
                   CASE WHEN a.pooled THEN g.span_us ELSE p.span_us END,
                   CASE WHEN a.pooled THEN g.exact ELSE p.exact END,
                   t.above_sum, t.above_n, p.round, p.outcome,
                   g.steps, g.one_run, g.one_step, g.one_round, g.one_outcome, g.one_from, g.one_to, p.from_us,
                   p.from_us + p.span_us, a.new_orders
            FROM agg a
            LEFT JOIN errs e ON e.run_key = a.run_key AND e.workload = a.workload AND e.target = a.target
                 AND e.threads = a.threads AND e.part = a.part AND e.pooled = a.pooled
                 AND e.run_id IS NOT DISTINCT FROM a.run_id AND e.step_id IS NOT DISTINCT FROM a.step_id
            LEFT JOIN q qo ON qo.ok AND qo.run_key = a.run_key AND qo.workload = a.workload AND qo.target = a.target
                 AND qo.threads = a.threads AND qo.part = a.part AND qo.pooled = a.pooled
                 AND qo.run_id IS NOT DISTINCT FROM a.run_id AND qo.step_id IS NOT DISTINCT FROM a.step_id
            LEFT JOIN q qe ON NOT qe.ok AND qe.run_key = a.run_key AND qe.workload = a.workload
                 AND qe.target = a.target AND qe.threads = a.threads AND qe.part = a.part AND qe.pooled = a.pooled
                 AND qe.run_id IS NOT DISTINCT FROM a.run_id AND qe.step_id IS NOT DISTINCT FROM a.step_id
            LEFT JOIN per_step p ON NOT a.pooled AND p.run_id = a.run_id AND p.step_id = a.step_id
            LEFT JOIN grp g ON a.pooled AND g.run_key = a.run_key AND g.workload = a.workload
                 AND g.target = a.target AND g.threads = a.threads AND g.part = a.part
            LEFT JOIN tail t ON a.pooled AND t.run_key = a.run_key AND t.workload = a.workload
                 AND t.target = a.target AND t.threads = a.threads AND t.part = a.part
            ORDER BY a.run_key, a.workload, a.target, a.threads, a.part <> '', a.part, a.pooled, p.started_at_ms,
                     a.run_id, a.step_id
            """;

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
        String sql = SQL.formatted(runs, pooling == Pooling.PER_RUN, list(READ_OPS), list(WRITE_OPS),
                TpccSamples.completedNewOrder("g"));
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
                        rs.getString(40), rs.getLong(41), rs.getLong(42)) : null;
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
                ? List.of(new StepRef(rs.getString(7), rs.getInt(8), rs.getInt(34), rs.getString(35), rs.getLong(43),
                        rs.getLong(44)))
                : only != null ? List.of(only) : steps.stream().flatMap(s -> s.steps().stream()).toList();
        // a step that did not complete stands alone (part is its run/step): its figures carry its outcome
        String outcome = part.isEmpty() ? null
                : refs.get(0).outcome() == null ? StepFigure.NOT_ENDED : refs.get(0).outcome();
        Latencies ok = okN == 0 ? null : latencies(rs, okN, 13, pooled ? slowest(rs, okN) : null);
        Latencies failed = n == okN ? null : latencies(rs, n - okN, 21, null);
        return new StepFigure(pooled ? (pooling == Pooling.PER_RUN ? runKey : null) : rs.getString(7),
                rs.getString(3), rs.getString(2), rs.getInt(4), refs, outcome, n, n - okN,
                errorsByClass(rs.getString(12)), seconds, exact, queries, rs.getLong(45), rate(queries, seconds),
                rate(okN, seconds),
                rate(n - okN, seconds), ok, failed, (Double) rs.getObject(28), (Double) rs.getObject(29),
                pooled ? steps : List.of());
    }

    /** A key's figures of its one step, as that step's own: its run, no slowest-0.1% share. */
    private static StepFigure alone(StepFigure f, StepRef step) {
        return new StepFigure(step.runId(), f.target(), f.workload(), f.threads(), List.of(step), f.outcome(),
                f.samples(), f.errors(), f.errorsByClass(), f.seconds(), f.exactSpan(), f.queries(), f.newOrders(),
                f.qps(), f.tps(), f.errorsPerSecond(), withoutShare(f.ok()), withoutShare(f.failed()), f.readMeanUs(),
                f.writeMeanUs(), List.of());
    }

    private static Latencies withoutShare(Latencies l) {
        return l == null ? null : new Latencies(l.count(), l.meanUs(), l.p50Us(), l.p95Us(), l.p99Us(), l.p999Us(),
                l.p9999Us(), l.maxUs(), l.slowestCount(), null);
    }

    private static StepFigure withStep(StepFigure f, StepFigure step) {
        return new StepFigure(f.runId(), f.target(), f.workload(), f.threads(), f.steps(), f.outcome(), f.samples(),
                f.errors(), f.errorsByClass(), f.seconds(), f.exactSpan(), f.queries(), f.newOrders(), f.qps(),
                f.tps(), f.errorsPerSecond(), f.ok(), f.failed(), f.readMeanUs(), f.writeMeanUs(), List.of(step));
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
                    + k + ") of " + n + ": the percentiles are not nearest-rank");
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
