package io.tailstream.reporter.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.ProofRun.Failure;
import io.tailstream.reporter.ProofRun.Spec;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
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
 * The history of TPC-C's tpmC: three runs of two rounds each (with deadlocks, rolled-back New-Orders, warm-up
 * samples) beside a workload that is not TPC-C. Each run's tpmC equals DuckDB's own count of its completed
 * New-Orders over its steps' recorded measured spans, and only the TPC-C series has the metric.
 */
class TpccTrendTest {

    private static final List<String> OPS = List.of("new_order", "payment", "order_status", "delivery",
            "stock_level", "new_order_rollback");
    private static final Spec TPCC = new Spec("mariadb", "tpcc", 8, 1, OPS, 28, 211, 1000, 3000, 2000, 9000, 0.01,
            700_000, List.of(new Failure(SampleStatus.DEADLOCK, 0.01, 100, 3000)), -1);
    private static final Spec OTHER = new Spec("mariadb", "oltp_read_write", 8, 1, List.of("read_write"), 18, 97,
            500, 2000, 1000, 3000, 0, 0, List.of(), -1);
    private static final long T0 = 1_767_000_000_000L;

    @TempDir
    static Path archive;

    @BeforeAll
    static void writeHistory() {
        List<SyntheticRun.Rec> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            records.addAll(new ProofRun("tpcc-" + i, 40 + i, T0 + i * 86_400_000L,
                    List.of(TPCC, TPCC.withRound(2), OTHER), true).records);
        }
        TestArchives.write(archive, records);
    }

    @Test
    void eachRunsTpmC_equalsDuckDbsCountOverItsMeasuredSpans() throws SQLException {
        Map<String, Double> expected = new TreeMap<>();
        String sql = """
                WITH spans AS (
                  SELECT run_id, sum(measure_end_us - measure_start_us) AS us FROM steps
                  WHERE workload = 'tpcc' AND outcome = 'completed' GROUP BY run_id)
                SELECT s.run_id, count(*) * 60e6 / any_value(spans.us)
                FROM samples s JOIN steps st USING (run_id, step_id) JOIN spans USING (run_id)
                WHERE st.workload = 'tpcc' AND st.outcome = 'completed' AND NOT s.warmup AND s.status = 'ok'
                  AND s.op IN ('new_order', 'new_order_rollback')
                GROUP BY s.run_id""";
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    expected.put(rs.getString(1), rs.getDouble(2));
                }
            }
            List<Series> series = TrendQuery.of(db, TrendFilter.ALL, Metric.TPMC,
                    new ChangePointDetector(ChangePointSettings.DEFAULTS));
            assertThat(series).hasSize(1);
            assertThat(series.get(0).key().workload()).isEqualTo("tpcc");
            assertThat(expected).hasSize(3);
            for (SeriesPoint p : series.get(0).points()) {
                assertThat(p.value()).as(p.runId()).isCloseTo(expected.get(p.runId()), within(1e-9));
                assertThat(p.rounds()).isEqualTo(2);
            }
            assertThat(series.get(0).points()).hasSize(3);
            assertThat(TrendQuery.of(db, TrendFilter.ALL, Metric.QPS,
                    new ChangePointDetector(ChangePointSettings.DEFAULTS))).as("both workloads have QPS").hasSize(2);
        }
    }

    /** The report's trend page follows TPC-C in tpmC, the throughput it is judged on, and other workloads in QPS. */
    @Test
    void reportsTrendPage_tpmCForTpcc_qpsForTheOthers() throws Exception {
        Path report = archive.resolveSibling(archive.getFileName() + "-report").resolve("report.html");
        io.tailstream.reporter.report.ReportGenerator.generate(archive,
                io.tailstream.reporter.report.ReportOptions.runs(List.of("tpcc-2")), report);
        String html = java.nio.file.Files.readString(
                io.tailstream.reporter.report.ReportGenerator.trendPage(report));
        assertThat(html).contains("<title>tailstream trend: qps, tpmC</title>")
                .contains("tpcc · 8 threads · tpmC</h2>");
        String json = html.substring(html.indexOf("id=\"trend-data\">") + "id=\"trend-data\">".length());
        com.fasterxml.jackson.databind.JsonNode series = io.tailstream.schemas.event.Json.MAPPER.readTree(
                json.substring(0, json.indexOf("</script>"))).get("series");
        assertThat(series).extracting(n -> n.get("label").asText()).containsExactly("qps", "tpmC");
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            Series tpmC = TrendQuery.of(db, TrendFilter.ALL, Metric.TPMC,
                    new ChangePointDetector(ChangePointSettings.DEFAULTS)).get(0);
            for (int i = 0; i < tpmC.points().size(); i++) {
                assertThat(series.get(1).get("v").get(i).asDouble()).isEqualTo(tpmC.points().get(i).value());
            }
            Series qps = TrendQuery.of(db, TrendFilter.ALL, Metric.QPS,
                    new ChangePointDetector(ChangePointSettings.DEFAULTS)).stream()
                    .filter(x -> x.key().workload().equals("oltp_read_write")).findFirst().orElseThrow();
            assertThat(series.get(0).get("v").get(0).asDouble()).isEqualTo(qps.points().get(0).value());
        }
    }

    @Test
    void theMetricIsNamedTpmc() {
        assertThat(Metric.parse("tpmc")).isEqualTo(Metric.TPMC);
        assertThat(Metric.parse("TPMC").label()).isEqualTo("tpmC");
        assertThat(Metric.TPMC.higherIsBetter()).isTrue();
        assertThat(Metric.TPMC.appliesTo("tpcc")).isTrue();
        assertThat(Metric.TPMC.appliesTo("ycsb_a")).isFalse();
        assertThat(Metric.QPS.appliesTo("tpcc")).isTrue();
        assertThatThrownBy(() -> Metric.parse("nopm")).hasMessageContaining("tpmc");
    }
}
