package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real selection evaluation across products, as users run it: the local MariaDB against the local PostgreSQL,
 * {@code oltp_point_select} and {@code oltp_read_write}, two thread counts, three rounds, monthly costs, default
 * ignored errors (sysbench's per product: PostgreSQL's read/write raises duplicate keys and deadlocks under
 * contention). The read/write table is large enough that deadlocks are rare: PostgreSQL detects one only after
 * {@code deadlock_timeout} (1 s), and threads held that long over a whole 1.2 s round would leave it no sample. It
 * must run to its end, and every figure of the verdict, the cost table, the summary rows and the aggregator's step
 * summaries must equal an exact computation over the archived raw samples (DuckDB).
 *
 * <p>The plan waives the checks whose outcome depends on how busy the machine is (client-bound, warm-up
 * settledness, error share, RTT) and isolation (MariaDB's REPEATABLE READ against PostgreSQL's READ COMMITTED,
 * tested apart), so that the verdicts exist and their figures can be checked; commit durability is not waived: the
 * two products' different settings must be recognised as the same durability for a verdict to exist at all.
 */
class CrossProductEvaluationIntegrationTest {

    private static final List<String> WORKLOADS = List.of("oltp_point_select", "oltp_read_write");

    @TempDir
    Path dir;

    @Test
    void mariadbAgainstPostgresql_runsToTheEnd_andEveryFigureIsExact() throws Exception {
        MySqlTestServer mysql = PasswordEnvTarget.require();
        PostgreSqlTestServer postgresql = PostgreSqlTestServer.require();
        Path plan = dir.resolve("plan.yaml");
        Files.writeString(plan, """
                name: mariadb-vs-postgresql
                targets:
                  - name: mariadb
                    url: "%s"
                    user: %s
                    passwordEnv: TAILSTREAM_MYSQL_PASSWORD
                    monthlyCost: 5602
                    currency: CNY
                    costItems: {compute: 3200, storage: 1500, operations: 902}
                  - name: postgresql
                    url: "%s"
                    user: %s
                    monthlyCost: 5160
                    currency: CNY
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 500}
                  - name: oltp_read_write
                    options: {tables: 1, table_size: 5000}
                threads: [2, 4]
                rounds: 3
                warmup: 400ms
                duration: 1200ms
                reportInterval: 0
                prepare: true
                accept: [clientBound, warmup, errors, rtt, isolation]
                """.formatted(mysql.url(), mysql.user(), postgresql.url(), postgresql.user()));
        Path out = dir.resolve("out");
        RunFailuresIntegrationTest.Outcome run = RunFailuresIntegrationTest.execute("run", "--plan", plan.toString(),
                "--out", out.toString(), "--run-id", "xprod", "--quiet");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

        Path archive = out.resolve("archive");
        Path json = dir.resolve("report.json");
        CliUsageTest.Outcome report = CliUsageTest.execute("report", "--archive", archive.toString(), "--run",
                "xprod", "--format", "json", "--out", json.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(json.toFile());

        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            assertThat(longValue(db, "SELECT count(*) FROM steps")).isEqualTo(24);
            assertThat(longValue(db, "SELECT count(*) FROM steps WHERE outcome = 'completed'")).isEqualTo(24);
            Map<String, Row> exact = exactRows(db);
            checkSummaryRows(doc, exact);
            checkVerdicts(doc, exact);
            checkCosts(doc, exact);
            checkAggregatorSummaries(db);
        }
    }

    /** Per workload, target and threads: figures pooled over the rounds, and each round's own. */
    record Row(String workload, String target, int threads, double qps, double tps, long p99Us,
               List<Double> roundQps, List<Long> roundP99Us) {}

    /** Exact figures from raw samples: statements that succeeded and successful transactions over exact spans. */
    private static Map<String, Row> exactRows(ArchiveDatabase db) throws SQLException {
        String perStep = """
                SELECT st.workload, st.target, st.threads, st.round,
                       sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS stmts,
                       count(*) FILTER (WHERE s.status = 'ok') AS ok,
                       quantile_disc(s.latency_us, 0.99) FILTER (WHERE s.status = 'ok') AS p99,
                       any_value(st.measure_end_us - st.measure_start_us) AS span_us
                FROM samples s JOIN steps st USING (run_id, step_id)
                WHERE NOT s.warmup GROUP BY ALL ORDER BY ALL""";
        String pooled = """
                WITH spans AS (SELECT workload, target, threads, sum(measure_end_us - measure_start_us) AS span_us
                               FROM steps GROUP BY ALL)
                SELECT st.workload, st.target, st.threads,
                       sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END),
                       count(*) FILTER (WHERE s.status = 'ok'),
                       quantile_disc(s.latency_us, 0.99) FILTER (WHERE s.status = 'ok'), any_value(spans.span_us)
                FROM samples s JOIN steps st USING (run_id, step_id) JOIN spans USING (workload, target, threads)
                WHERE NOT s.warmup GROUP BY ALL ORDER BY ALL""";
        Map<String, List<double[]>> rounds = new TreeMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(perStep)) {
            while (rs.next()) {
                String key = rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getInt(3);
                rounds.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {
                        rs.getLong(5) / (rs.getLong(8) / 1e6), rs.getLong(7)});
            }
        }
        Map<String, Row> out = new LinkedHashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(pooled)) {
            while (rs.next()) {
                String key = rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getInt(3);
                double seconds = rs.getLong(7) / 1e6;
                List<double[]> r = rounds.get(key);
                assertThat(r).as("rounds of " + key).hasSize(3);
                out.put(key, new Row(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4) / seconds,
                        rs.getLong(5) / seconds, rs.getLong(6), r.stream().map(x -> x[0]).toList(),
                        r.stream().map(x -> (long) x[1]).toList()));
            }
        }
        assertThat(out).hasSize(8);
        return out;
    }

    private static void checkSummaryRows(JsonNode doc, Map<String, Row> exact) {
        int seen = 0;
        for (JsonNode w : doc.get("workloads")) {
            for (JsonNode r : w.get("rows")) {
                Row e = exact.get(w.get("workload").asText() + "/" + r.get("target").asText() + "/"
                        + r.get("threads").asInt());
                assertThat(e).as("row " + r).isNotNull();
                assertThat(r.get("qps").asDouble()).as("qps " + e).isCloseTo(e.qps(), within(e.qps() * 1e-9));
                assertThat(r.get("tps").asDouble()).as("tps " + e).isCloseTo(e.tps(), within(e.tps() * 1e-9));
                assertThat(r.get("p99Ms").asDouble()).as("p99 " + e).isEqualTo(e.p99Us() / 1000.0);
                assertThat(r.get("rounds").asInt()).isEqualTo(3);
                seen++;
            }
        }
        assertThat(seen).isEqualTo(8);
    }

    /**
     * Each verdict against the rules in docs/report.md, decided here from the exact figures: the best value, the
     * runner-up's, the noise (the larger coefficient of variation over rounds), and win or tie.
     */
    private static void checkVerdicts(JsonNode doc, Map<String, Row> exact) {
        Map<String, JsonNode> byKey = new TreeMap<>();
        doc.get("verdicts").forEach(v -> byKey.put(v.get("workload").asText() + "/" + v.get("metric").asText(), v));
        assertThat(doc.get("verdictSummary").get("comparisons").asInt()).isEqualTo(6);
        for (String workload : WORKLOADS) {
            Row mPeak = peak(exact, workload, "mariadb");
            Row pPeak = peak(exact, workload, "postgresql");
            checkVerdict(byKey.get(workload + "/throughput"), mPeak.qps(), pPeak.qps(), mPeak.roundQps(),
                    pPeak.roundQps(), true);
            Row m4 = exact.get(workload + "/mariadb/4");
            Row p4 = exact.get(workload + "/postgresql/4");
            checkVerdict(byKey.get(workload + "/p99"), m4.p99Us() / 1000.0, p4.p99Us() / 1000.0,
                    m4.roundP99Us().stream().map(x -> x / 1000.0).toList(),
                    p4.roundP99Us().stream().map(x -> x / 1000.0).toList(), false);
            checkVerdict(byKey.get(workload + "/cost"), 5602 / mPeak.qps() * 1000, 5160 / pPeak.qps() * 1000,
                    mPeak.roundQps().stream().map(q -> 5602 / q * 1000).toList(),
                    pPeak.roundQps().stream().map(q -> 5160 / q * 1000).toList(), false);
        }
        assertThat(doc.get("verdictSummary").get("decided").asInt()).as("every comparison has a verdict: durability"
                + " of MariaDB (flush at commit) and PostgreSQL (fsync, synchronous_commit) is the same").isEqualTo(6);
    }

    /**
     * Fieller's confidence set of the ratio of the two mean rounds is a bounded interval exactly when the runner-up's
     * mean is told apart from 0, and excludes 1 exactly when Welch's t-test tells the means apart, lying then on the
     * side of the larger: the best wins when both hold and its difference exceeds the noise.
     */
    private static void checkVerdict(JsonNode v, double mValue, double pValue, List<Double> mRounds,
                                     List<Double> pRounds, boolean higherIsBetter) {
        assertThat(v).isNotNull();
        boolean mBest = higherIsBetter ? mValue >= pValue : mValue <= pValue;
        String best = mBest ? "mariadb" : "postgresql";
        double bestValue = mBest ? mValue : pValue;
        double other = mBest ? pValue : mValue;
        List<Double> b = mBest ? mRounds : pRounds;
        List<Double> o = mBest ? pRounds : mRounds;
        double vb = variance(b) / b.size();
        double vo = variance(o) / o.size();
        double df = (vb + vo) * (vb + vo) / (vb * vb / (b.size() - 1) + vo * vo / (o.size() - 1));
        double t = vb + vo == 0 ? 0
                : org.apache.commons.statistics.distribution.TDistribution.of(df).inverseSurvivalProbability(0.025);
        boolean apart = Math.abs(mean(b) - mean(o)) > t * Math.sqrt(vb + vo)
                && mean(o) * mean(o) > t * t * vo && higherIsBetter == mean(b) > mean(o);
        double noise = Math.max(Math.sqrt(variance(b)) / mean(b), Math.sqrt(variance(o)) / mean(o)) * 100;
        String status = apart && Math.abs(bestValue / other - 1) * 100 > noise ? "win" : "tie";
        assertThat(v.get("status").asText()).as("status of %s (%s %.6f vs %.6f, noise %.3f%%)", v, best, bestValue,
                other, noise).isEqualTo(status);
        assertThat(v.get("winner").asText()).as(v.toString()).isEqualTo(best);
        assertThat(v.get("value").asDouble()).isCloseTo(bestValue, within(Math.abs(bestValue) * 1e-9));
        assertThat(v.get("runnerUpValue").asDouble()).isCloseTo(other, within(Math.abs(other) * 1e-9));
        assertThat(v.get("noisePct").asDouble()).isCloseTo(noise, within(noise * 1e-9 + 1e-12));
        assertThat(v.get("reasons")).isEmpty();
        assertThat(v.get("waived").toString()).as("the report says the plan waived isolation").contains("isolation");
    }

    private static double mean(List<Double> x) {
        return x.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    private static double variance(List<Double> x) {
        double m = mean(x);
        return x.stream().mapToDouble(d -> (d - m) * (d - m)).sum() / (x.size() - 1);
    }

    private static void checkCosts(JsonNode doc, Map<String, Row> exact) {
        for (JsonNode w : doc.get("workloads")) {
            String workload = w.get("workload").asText();
            Map<String, Double> monthly = Map.of("mariadb", 5602.0, "postgresql", 5160.0);
            assertThat(w.get("costs")).hasSize(2);
            for (JsonNode c : w.get("costs")) {
                Row peak = peak(exact, workload, c.get("target").asText());
                double cost = monthly.get(c.get("target").asText());
                assertThat(c.get("peakQps").asDouble()).isCloseTo(peak.qps(), within(peak.qps() * 1e-9));
                assertThat(c.get("peakThreads").asInt()).isEqualTo(peak.threads());
                assertThat(c.get("costPer1000Qps").asDouble()).isCloseTo(cost / peak.qps() * 1000,
                        within(cost / peak.qps() * 1e-6));
                assertThat(c.get("currency").asText()).isEqualTo("CNY");
            }
        }
    }

    /**
     * The aggregator's step summaries of the "*" scope against the raw samples: QPS and TPS over the exact span within
     * 0.1%, P99 within HdrHistogram's precision (3 significant digits).
     */
    private static void checkAggregatorSummaries(ArchiveDatabase db) throws SQLException {
        String sql = """
                WITH e AS (
                  SELECT s.step_id,
                         sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS stmts,
                         count(*) FILTER (WHERE s.status = 'ok') AS ok,
                         quantile_disc(s.latency_us, 0.99) FILTER (WHERE s.status = 'ok') AS p99,
                         any_value(st.measure_end_us - st.measure_start_us) / 1e6 AS seconds
                  FROM samples s JOIN steps st USING (run_id, step_id) WHERE NOT s.warmup GROUP BY ALL)
                SELECT e.step_id, e.stmts / e.seconds, e.ok / e.seconds, e.p99, m.qps, m.tps, m.p99_us
                FROM e JOIN summaries m ON m.step_id = e.step_id AND m.op = '*' ORDER BY 1""";
        int steps = 0;
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                steps++;
                double qps = rs.getDouble(2);
                assertThat(rs.getDouble(5)).as("summary QPS of step %d", rs.getInt(1)).isCloseTo(qps,
                        within(qps * 0.001));
                assertThat(rs.getDouble(6)).as("summary TPS of step %d", rs.getInt(1)).isCloseTo(rs.getDouble(3),
                        within(rs.getDouble(3) * 0.001));
                long p99 = rs.getLong(4);
                assertThat(rs.getLong(7)).as("summary P99 of step %d", rs.getInt(1)).isBetween(p99,
                        p99 + Math.max(1, p99 / 1000));
            }
        }
        assertThat(steps).isEqualTo(24);
    }

    /** The target's row of highest QPS (the lowest thread count on equal QPS), as the report picks it. */
    private static Row peak(Map<String, Row> exact, String workload, String target) {
        return exact.values().stream().filter(r -> r.workload().equals(workload) && r.target().equals(target))
                .max(Comparator.comparingDouble(Row::qps).thenComparing(Comparator.comparingInt(Row::threads)
                        .reversed())).orElseThrow();
    }
}
