package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.ProofRun.Failure;
import io.tailstream.reporter.ProofRun.Spec;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.DataChecked;
import io.tailstream.schemas.event.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's TPC-C figures against DuckDB's own computation over the same archive (quantile_disc, counts over the
 * recorded spans), on two rounds of a TPC-C-like step with failures, a third round that failed midway (never
 * pooled), and a workload that is not TPC-C (no TPC-C figures).
 */
class TpccReportTest {

    static final List<String> OPS = List.of("new_order", "payment", "order_status", "delivery", "stock_level",
            "new_order_rollback", "delivery_skipped");
    static final Spec TPCC = new Spec("mariadb", "tpcc", 8, 1, OPS, 28, 211, 1000, 3000, 2000, 9000, 0.01, 700_000,
            List.of(new Failure(SampleStatus.DEADLOCK, 0.01, 100, 3000)), -1);
    static final Spec OTHER = new Spec("mariadb", "oltp_read_write", 8, 1, List.of("read_write"), 18, 97, 500, 2000,
            1000, 3000, 0, 0, List.of(), -1);

    @TempDir
    static Path dir;
    static Path archive;
    static ReportModel model;

    @BeforeAll
    static void archiveAndLoad() throws Exception {
        ProofRun run = new ProofRun("tpcc-proof", 23, 1_767_000_000_000L,
                List.of(TPCC, TPCC.withRound(2), TPCC.withRound(3).withFailAfter(900), OTHER), true);
        // the producer's checks after the steps: the first held, the second found condition 2 broken, and the
        // third round, which failed, is not the row's
        List<DataChecked.Check> held = List.of(new DataChecked.Check("consistency_1", true, null),
                new DataChecked.Check("consistency_2", true, null));
        check(run, 1, held);
        check(run, 2, List.of(held.get(0), new DataChecked.Check("consistency_2", false, "1 of 10 districts break"
                + " D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) in each district")));
        check(run, 3, List.of(new DataChecked.Check("consistency_1", false, "1 of 1 warehouses break it")));
        archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        model = ReportGenerator.load(archive, ReportOptions.allRuns());
    }

    private static void check(ProofRun run, int step, List<DataChecked.Check> checks) {
        run.records.add(new SyntheticRun.Rec(Topics.CONTROL, 0, run.runId.getBytes(StandardCharsets.UTF_8),
                Json.write(new DataChecked(run.runId, 1_767_000_100_000L + step, ProofRun.PRODUCERS.get(0), step,
                        "mariadb", "tpcc", checks, 2_000_000, null))));
    }

    @Test
    void theConsistencyChecks_ofThePooledStepsOnly_brokenWhereOneDidNotHold() throws Exception {
        TpccRow.Consistency c = workload("tpcc").tpcc().get(0).consistency();
        assertThat(c.steps()).isEqualTo(2);
        assertThat(c.checked()).isEqualTo(2);
        assertThat(c.broken()).containsExactly("tpcc-proof#2 consistency_2: 1 of 10 districts break D_NEXT_O_ID - 1"
                + " = max(O_ID) = max(NO_O_ID) in each district");
        assertThat(c.status()).isEqualTo("broken");
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("data-key=\"consistency\" data-value=\"broken\"")
                .contains("broken: tpcc-proof#2 consistency_2");
        assertThat(new TpccRow.Consistency(2, 2, List.of(), List.of()).status()).isEqualTo("held");
        assertThat(new TpccRow.Consistency(2, 1, List.of(), List.of("r#2: timeout")).status()).isEqualTo("partly");
        assertThat(new TpccRow.Consistency(2, 0, List.of(), List.of("r#2: timeout")).status()).isEqualTo("error");
        assertThat(TpccRow.Consistency.unchecked(2).status()).isEqualTo("unchecked");
    }

    @Test
    void everyFigure_equalsDuckDbsComputationOverTheArchive() throws Exception {
        TpccRow row = workload("tpcc").tpcc().get(0);
        String sql = """
                WITH spans AS (
                  SELECT sum(measure_end_us - measure_start_us) / 60e6 AS minutes FROM steps
                  WHERE workload = 'tpcc' AND outcome = 'completed'),
                s AS (
                  SELECT CASE op WHEN 'new_order_rollback' THEN 'new_order' WHEN 'delivery_skipped' THEN 'delivery'
                         ELSE op END AS type, op, status, latency_us
                  FROM samples JOIN steps USING (run_id, step_id)
                  WHERE workload = 'tpcc' AND outcome = 'completed' AND NOT warmup)
                SELECT type, count(*) FILTER (WHERE status = 'ok') AS completed,
                       count(*) FILTER (WHERE status <> 'ok') AS errors,
                       quantile_disc(latency_us, 0.9) FILTER (WHERE status = 'ok') AS p90,
                       count(*) FILTER (WHERE status = 'ok' AND op IN ('new_order_rollback', 'delivery_skipped'))
                           AS variant,
                       count(*) FILTER (WHERE status = 'ok' AND op IN ('new_order', 'delivery')) AS plain,
                       (SELECT count(*) FROM s WHERE status = 'ok') AS all_completed,
                       any_value(spans.minutes) AS minutes
                FROM s, spans GROUP BY type ORDER BY type""";
        int types = 0;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String type = rs.getString(1);
                TpccRow.Type t = row.types().stream().filter(x -> x.type().equals(type)).findFirst().orElseThrow();
                double minutes = rs.getDouble(8);
                assertThat(row.minutes()).isCloseTo(minutes, within(1e-9));
                assertThat(t.completed()).as(t.type()).isEqualTo(rs.getLong(2)).isPositive();
                assertThat(t.errors()).as(t.type()).isEqualTo(rs.getLong(3));
                assertThat(t.p90Ms()).as(t.type()).isEqualTo(rs.getLong(4) / 1000.0);
                assertThat(t.tps()).isCloseTo(rs.getLong(2) / (minutes * 60), within(1e-9));
                assertThat(t.sharePct()).isCloseTo(rs.getLong(2) * 100.0 / rs.getLong(7), within(1e-9));
                if (t.type().equals("new_order")) {
                    assertThat(row.rolledBack()).isEqualTo(rs.getLong(5)).isPositive();
                    assertThat(row.tpmC()).isCloseTo(rs.getLong(2) / minutes, within(1e-9));
                    assertThat(row.nopm()).isCloseTo(rs.getLong(6) / minutes, within(1e-9));
                    assertThat(row.rolledBackPct()).isCloseTo(rs.getLong(5) * 100.0 / rs.getLong(2), within(1e-9));
                }
                if (t.type().equals("delivery")) {
                    assertThat(row.skippedDeliveries()).isEqualTo(rs.getLong(5)).isPositive();
                    assertThat(row.skippedDeliveriesPct()).isCloseTo(rs.getLong(5) * 100.0 / rs.getLong(2),
                            within(1e-9));
                }
                types++;
            }
        }
        assertThat(types).isEqualTo(5);
        assertThat(row.minutes() * 60).isEqualTo(row(workload("tpcc")).measuredSeconds());
        // ops drawn uniformly: Payment far below its minimum share, half the Deliveries skipped a district, so the
        // row is outside the specification
        assertThat(row.withinSpecification()).isFalse();
        assertThat(workload("oltp_read_write").tpcc()).isEmpty();
    }

    @Test
    void eachRoundsTpmC_equalsDuckDbsCountOverItsOwnSpan() throws Exception {
        TpccRow row = workload("tpcc").tpcc().get(0);
        String sql = """
                SELECT st.step_id, count(*) FILTER (WHERE s.status = 'ok'
                           AND s.op IN ('new_order', 'new_order_rollback')) * 60e6
                       / any_value(st.measure_end_us - st.measure_start_us)
                FROM samples s JOIN steps st USING (run_id, step_id)
                WHERE st.workload = 'tpcc' AND st.outcome = 'completed' AND NOT s.warmup
                GROUP BY st.step_id ORDER BY st.step_id""";
        List<Double> expected = new java.util.ArrayList<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                expected.add(rs.getDouble(2));
            }
        }
        assertThat(expected).hasSize(2);
        assertThat(row.roundTpmC()).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(row.roundTpmC().get(i)).as("round %d", i + 1).isCloseTo(expected.get(i), within(1e-9));
        }
        // one target: nothing to compare, but the verdict's rows are the TPC-C ones
        assertThat(model.verdicts().stream().filter(v -> v.workload().equals("tpcc")).findFirst().orElseThrow()
                .metricKey()).isEqualTo("verdict.metric.throughput.tpmC");
    }

    @Test
    void theHtmlAndJsonReports_carryTheFigures() throws Exception {
        TpccRow row = workload("tpcc").tpcc().get(0);
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(value(html, "table class=\"tpcc\"", "tpmc")).isEqualTo(row.tpmC());
        assertThat(value(html, "table class=\"tpcc\"", "nopm")).isEqualTo(row.nopm());
        assertThat(value(html, "table class=\"tpcc\"", "skipped_deliveries_pct")).isEqualTo(row.skippedDeliveriesPct());
        assertThat(value(html, "data-type=\"stock_level\"", "p90_ms")).isEqualTo(row.types().get(4).p90Ms());
        assertThat(html).contains("data-key=\"within_specification\" data-value=\"false\"");
        assertThat(html.split("table class=\"tpcc\"", -1)).as("one TPC-C table, for the TPC-C workload").hasSize(2);
        JsonNode json = Json.MAPPER.readTree(JsonReport.write(model, Locale.ENGLISH));
        for (JsonNode w : json.get("workloads")) {
            if (w.get("workload").asText().equals("tpcc")) {
                JsonNode t = w.get("tpcc").get(0);
                assertThat(t.get("tpmC").asDouble()).isEqualTo(row.tpmC());
                assertThat(t.get("withinSpecification").asBoolean()).isFalse();
                assertThat(t.get("skippedDeliveries").asLong()).isEqualTo(row.skippedDeliveries());
                assertThat(t.get("types")).hasSize(5);
            } else {
                assertThat(w.get("tpcc")).isEmpty();
            }
        }
        String md = MarkdownReport.write(model, Locale.ENGLISH);
        assertThat(md).contains("### TPC-C").contains("| mariadb | 8 | Stock-Level | "
                + row.types().get(4).completed() + " |");
        String zh = ReportGenerator.render(model, Locale.SIMPLIFIED_CHINESE);
        assertThat(zh).contains("不符合");
    }

    private static double value(String html, String after, String key) {
        Matcher m = Pattern.compile("data-key=\"" + key + "\" data-value=\"([^\"]+)\"")
                .matcher(html.substring(html.indexOf(after)));
        assertThat(m.find()).as(key).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static WorkloadSummary workload(String name) {
        return model.workloads().stream().filter(w -> w.workload().equals(name)).findFirst().orElseThrow();
    }

    private static SummaryRow row(WorkloadSummary w) {
        assertThat(w.rows()).hasSize(1);
        return w.rows().get(0);
    }
}
