package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.ProofRun.Failure;
import io.tailstream.reporter.ProofRun.Spec;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
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
            "new_order_rollback");
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
        archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        model = ReportGenerator.load(archive, ReportOptions.allRuns());
    }

    @Test
    void everyFigure_equalsDuckDbsComputationOverTheArchive() throws Exception {
        TpccRow row = workload("tpcc").tpcc().get(0);
        String sql = """
                WITH spans AS (
                  SELECT sum(measure_end_us - measure_start_us) / 60e6 AS minutes FROM steps
                  WHERE workload = 'tpcc' AND outcome = 'completed'),
                s AS (
                  SELECT CASE WHEN op = 'new_order_rollback' THEN 'new_order' ELSE op END AS type, op, status,
                         latency_us
                  FROM samples JOIN steps USING (run_id, step_id)
                  WHERE workload = 'tpcc' AND outcome = 'completed' AND NOT warmup)
                SELECT type, count(*) FILTER (WHERE status = 'ok') AS completed,
                       count(*) FILTER (WHERE status <> 'ok') AS errors,
                       quantile_disc(latency_us, 0.9) FILTER (WHERE status = 'ok') AS p90,
                       count(*) FILTER (WHERE status = 'ok' AND op = 'new_order_rollback') AS rolled_back,
                       count(*) FILTER (WHERE status = 'ok' AND op = 'new_order') AS committed,
                       (SELECT count(*) FROM s WHERE status = 'ok') AS all_completed,
                       any_value(spans.minutes) AS minutes
                FROM s, spans GROUP BY type ORDER BY type""";
        int types = 0;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                TpccRow.Type t = row.types().stream().filter(x -> {
                    try {
                        return x.type().equals(rs.getString(1));
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }).findFirst().orElseThrow();
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
                types++;
            }
        }
        assertThat(types).isEqualTo(5);
        assertThat(row.minutes() * 60).isEqualTo(row(workload("tpcc")).measuredSeconds());
        // ops drawn uniformly: Payment far below its minimum share, so the row is outside the specification
        assertThat(row.withinSpecification()).isFalse();
        assertThat(workload("oltp_read_write").tpcc()).isEmpty();
    }

    @Test
    void theHtmlAndJsonReports_carryTheFigures() throws Exception {
        TpccRow row = workload("tpcc").tpcc().get(0);
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(value(html, "table class=\"tpcc\"", "tpmc")).isEqualTo(row.tpmC());
        assertThat(value(html, "table class=\"tpcc\"", "nopm")).isEqualTo(row.nopm());
        assertThat(value(html, "data-type=\"stock_level\"", "p90_ms")).isEqualTo(row.types().get(4).p90Ms());
        assertThat(html).contains("data-key=\"within_specification\" data-value=\"false\"");
        assertThat(html.split("table class=\"tpcc\"", -1)).as("one TPC-C table, for the TPC-C workload").hasSize(2);
        JsonNode json = Json.MAPPER.readTree(JsonReport.write(model, Locale.ENGLISH));
        for (JsonNode w : json.get("workloads")) {
            if (w.get("workload").asText().equals("tpcc")) {
                JsonNode t = w.get("tpcc").get(0);
                assertThat(t.get("tpmC").asDouble()).isEqualTo(row.tpmC());
                assertThat(t.get("withinSpecification").asBoolean()).isFalse();
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
