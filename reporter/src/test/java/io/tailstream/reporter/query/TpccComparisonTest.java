package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.ProofRun.Failure;
import io.tailstream.reporter.ProofRun.Spec;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.block.SampleStatus;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare} judges TPC-C on tpmC: a candidate that sends as many statements a second but completes half the
 * New-Orders (its mix has one New-Order in six transactions, the baseline's two) is worse, though its QPS is the same.
 * The tpmC figures, the New-Orders per second behind the interval within the steps, and the interval between rounds
 * are checked against DuckDB's own counts over the same archive.
 */
class TpccComparisonTest {

    private static final List<String> OPS = List.of("new_order", "payment", "order_status", "delivery",
            "stock_level", "new_order_rollback");
    private static final List<String> FEWER_NEW_ORDERS = List.of("new_order", "payment", "payment", "order_status",
            "delivery", "stock_level");
    private static final List<Failure> DEADLOCKS = List.of(new Failure(SampleStatus.DEADLOCK, 0.01, 100, 3000));
    private static final Spec TPCC = new Spec("mariadb", "tpcc", 8, 1, OPS, 28, 211, 1000, 20_000, 1000, 9000, 0.01,
            700_000, DEADLOCKS, -1);
    private static final Spec FEWER = new Spec("mariadb", "tpcc", 8, 1, FEWER_NEW_ORDERS, 28, 211, 1000, 20_000, 1000,
            9000, 0.01, 700_000, DEADLOCKS, -1);
    private static final Spec OTHER = new Spec("mariadb", "oltp_read_write", 8, 1, List.of("read_write"), 18, 97,
            500, 5000, 1000, 3000, 0, 0, List.of(), -1);
    private static final long T0 = 1_767_000_000_000L;
    private static final long DAY = 86_400_000L;

    @TempDir
    static Path archive;

    @BeforeAll
    static void writeRuns() {
        List<SyntheticRun.Rec> records = new ArrayList<>();
        records.addAll(new ProofRun("base", 1, T0, List.of(TPCC, OTHER), true).records);
        records.addAll(new ProofRun("fewer", 2, T0 + DAY, List.of(FEWER, OTHER), true).records);
        records.addAll(new ProofRun("rounds-base", 3, T0 + 2 * DAY, List.of(TPCC, TPCC.withRound(2),
                TPCC.withRound(3)), true).records);
        records.addAll(new ProofRun("rounds-fewer", 4, T0 + 3 * DAY, List.of(FEWER, FEWER.withRound(2),
                FEWER.withRound(3)), true).records);
        TestArchives.write(archive, records);
    }

    @Test
    void halfTheNewOrders_sameQps_isWorseOnTpmC() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            RunComparison.Result result = RunComparison.compare(db, "base", "fewer", 5);
            RunComparison.Row tpcc = row(result, "tpcc");
            Map<String, Double> expected = tpmCByStep(db);
            assertThat(tpcc.baseline().tpmC()).isCloseTo(expected.get("base/1"), within(1e-9));
            assertThat(tpcc.candidate().tpmC()).isCloseTo(expected.get("fewer/1"), within(1e-9));
            assertThat(tpcc.intervals().method()).isEqualTo(StepIntervals.Method.SECONDS);
            PercentInterval tpmC = tpcc.intervals().tpmC();
            assertThat(tpmC.estimatePct()).isCloseTo(
                    (expected.get("fewer/1") / expected.get("base/1") - 1) * 100, within(1e-9));
            assertThat(tpmC.estimatePct()).isBetween(-55.0, -45.0);
            assertThat(tpmC.bounded()).isTrue();
            assertThat(tpmC.highPct()).isLessThan(-40);
            assertThat(tpmC.lowPct()).isLessThan(tpmC.estimatePct());
            // the same statements a second: QPS alone would not call it worse
            assertThat(tpcc.intervals().qps().highPct()).isGreaterThan(-5);
            assertThat(RunComparison.verdict(new StepIntervals.Intervals(tpcc.intervals().qps(),
                    tpcc.intervals().p99(), tpcc.intervals().method(), null, null, null, null), 5))
                    .isNotEqualTo(RunComparison.Verdict.WORSE);
            assertThat(tpcc.verdict()).isEqualTo(RunComparison.Verdict.WORSE);
            assertThat(result.regressed()).isTrue();

            RunComparison.Row other = row(result, "oltp_read_write");
            assertThat(other.intervals().tpmC()).isNull();
            assertThat(other.baseline().tpmC()).isZero();
        }
    }

    /** The New-Orders per second of a step, as the interval within the steps resamples them, counted here. */
    @Test
    void newOrdersPerSecond_matchDuckDbsCount() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            StepFigure f = StepFigureQuery.of(db, List.of("base")).stream().filter(StepFigure::tpcc).findFirst()
                    .orElseThrow();
            StepFigure.StepRef step = f.steps().get(0);
            StepSeconds s = StepSecondsQuery.newOrders(db, List.of(step)).get("base").get(step.stepId());
            String sql = """
                    SELECT (start_us + latency_us - %d) // 1000000 AS unit, count(*) FILTER (WHERE %s)
                    FROM samples WHERE run_id = 'base' AND step_id = %d AND NOT warmup
                    GROUP BY unit ORDER BY unit""".formatted(step.fromUs(), TpccSamples.completedNewOrder("samples"),
                    step.stepId());
            Map<Long, Long> expected = new TreeMap<>();
            try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    expected.put(rs.getLong(1), rs.getLong(2));
                }
            }
            int units = (int) ((step.toUs() - step.fromUs()) / 1_000_000);
            assertThat(s.units()).isEqualTo(units).isGreaterThanOrEqualTo(19);
            for (int u = 0; u < units; u++) {
                assertThat(s.qps(u)).as("unit %d", u).isEqualTo(expected.getOrDefault((long) u, 0L).doubleValue());
            }
            assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).isPositive();
        }
    }

    @Test
    void rounds_fiellerOnEachRoundsTpmC() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            RunComparison.Row tpcc = row(RunComparison.compare(db, "rounds-base", "rounds-fewer", 5), "tpcc");
            Map<String, Double> expected = tpmCByStep(db);
            double[] base = {expected.get("rounds-base/1"), expected.get("rounds-base/2"),
                    expected.get("rounds-base/3")};
            double[] cand = {expected.get("rounds-fewer/1"), expected.get("rounds-fewer/2"),
                    expected.get("rounds-fewer/3")};
            PercentInterval f = Fieller.ratioOfMeans(cand, base, 0.95);
            assertThat(tpcc.intervals().method()).isEqualTo(StepIntervals.Method.ROUNDS);
            assertThat(tpcc.intervals().tpmC().lowPct()).isCloseTo(f.lowPct(), within(1e-9));
            assertThat(tpcc.intervals().tpmC().highPct()).isCloseTo(f.highPct(), within(1e-9));
            assertThat(tpcc.intervals().tpmCNoisePct()).isNotNull().isPositive();
            assertThat(tpcc.verdict()).isEqualTo(RunComparison.Verdict.WORSE);
        }
    }

    private static RunComparison.Row row(RunComparison.Result result, String workload) {
        return result.rows().stream().filter(r -> r.key().workload().equals(workload)).findFirst().orElseThrow();
    }

    /** tpmC of every TPC-C step, "run/step": DuckDB's count of completed New-Orders over its recorded span. */
    private static Map<String, Double> tpmCByStep(ArchiveDatabase db) throws SQLException {
        String sql = """
                SELECT st.run_id || '/' || st.step_id, count(s.op) * 60e6 / any_value(st.measure_end_us
                       - st.measure_start_us)
                FROM steps st LEFT JOIN samples s ON s.run_id = st.run_id AND s.step_id = st.step_id
                     AND NOT s.warmup AND s.status = 'ok' AND s.op IN ('new_order', 'new_order_rollback')
                WHERE st.workload = 'tpcc'
                GROUP BY ALL""";
        Map<String, Double> out = new TreeMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getDouble(2));
            }
        }
        return out;
    }
}
