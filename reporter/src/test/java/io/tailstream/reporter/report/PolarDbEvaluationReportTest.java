package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.report.FixtureRun.Row;
import io.tailstream.reporter.report.FixtureRun.Step;
import io.tailstream.schemas.event.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PolarDB selection evaluation (three candidates plus PolarDB with a read-only node; read-only, write-only,
 * read-write; P99 at 128/256/512 threads; monthly costs) archived by the pipeline's writer; every figure of the report
 * checked against an exact computation from the generated samples.
 */
class PolarDbEvaluationReportTest {

    @TempDir
    static Path dir;
    static FixtureRun run;
    static Path archive;
    static ReportModel model;
    static final ReportOptions OPTIONS = ReportOptions.allRuns().withBaseline(PolarDbEvaluation.ESSD.name());

    /** Exact figures of one (workload, target, threads): all rounds merged, and per round. */
    record Expected(double qps, double tps, double avgMs, double p95Ms, double p99Ms, double maxMs, long n,
                    long errors, List<Double> roundQps, List<Double> roundP99) {}

    @BeforeAll
    static void archiveAndLoad() throws Exception {
        archive = dir.resolve("archive");
        run = PolarDbEvaluation.write(archive);
        model = ReportGenerator.load(archive, OPTIONS);
    }

    static Map<String, Expected> expected() {
        Map<String, List<Integer>> stepsByKey = new TreeMap<>();
        for (int i = 0; i < run.steps.size(); i++) {
            Step s = run.steps.get(i);
            stepsByKey.computeIfAbsent(key(s.workload(), s.target().name(), s.threads()), k -> new ArrayList<>())
                    .add(i + 1);
        }
        Map<Integer, List<Row>> rowsByStep = run.rows.stream().filter(r -> !r.warmup())
                .collect(Collectors.groupingBy(Row::stepId));
        Map<String, Expected> out = new HashMap<>();
        stepsByKey.forEach((key, stepIds) -> {
            // the fixture's events predate recorded measurement boundaries: each step spans its measured samples
            List<ExactFigures.Step> steps = new ArrayList<>();
            for (int id : stepIds) {
                List<Row> rows = rowsByStep.get(id);
                long span = rows.stream().mapToLong(Row::endUs).max().orElseThrow()
                        - rows.stream().mapToLong(Row::startUs).min().orElseThrow();
                steps.add(new ExactFigures.Step(rows.stream().map(r -> new ExactFigures.Sample(r.latencyUs(),
                        r.ok() ? "ok" : "deadlock", r.queries(), r.op())).toList(), span));
            }
            ExactFigures.Expected e = ExactFigures.of(steps);
            out.put(key, new Expected(e.qps(), e.tps(), e.ok().meanUs() / 1000, e.ok().p95() / 1000.0,
                    e.ok().p99() / 1000.0, e.ok().max() / 1000.0, e.samples(), e.errors(), e.roundQps(),
                    e.roundP99Us().stream().map(v -> v / 1000.0).toList()));
        });
        return out;
    }

    static String key(String workload, String target, int threads) {
        return workload + "/" + target + "/" + threads;
    }

    static void close(double actual, double expected) {
        assertThat(actual).isCloseTo(expected, within(Math.abs(expected) * 1e-9 + 1e-12));
    }

    @Test
    void summaryRows_andBaselineDeltas_equalExactComputation() {
        Map<String, Expected> exp = expected();
        int rows = 0;
        for (WorkloadSummary w : model.workloads()) {
            for (SummaryRow r : w.rows()) {
                Expected e = exp.get(key(r.workload(), r.target(), r.threads()));
                close(r.qps(), e.qps());
                close(r.tps(), e.tps());
                close(r.avgMs(), e.avgMs());
                close(r.p95Ms(), e.p95Ms());
                close(r.p99Ms(), e.p99Ms());
                close(r.maxMs(), e.maxMs());
                assertThat(r.transactions()).isEqualTo(e.n());
                assertThat(r.errors()).isEqualTo(e.errors());
                assertThat(r.rounds()).isEqualTo(3);
                assertThat(r.roundQps()).hasSize(3);
                for (int i = 0; i < 3; i++) {
                    close(r.roundQps().get(i), e.roundQps().get(i));
                    close(r.roundP99Ms().get(i), e.roundP99().get(i));
                }
                Expected base = exp.get(key(r.workload(), PolarDbEvaluation.ESSD.name(), r.threads()));
                close(r.delta().qpsPct(), (e.qps() - base.qps()) / base.qps() * 100);
                close(r.delta().p99Pct(), (e.p99Ms() - base.p99Ms()) / base.p99Ms() * 100);
                rows++;
            }
        }
        assertThat(rows).isEqualTo(exp.size()).isEqualTo(10 * 3);
        // RW has deadlocks: errors counted, TPS counts successful transactions only
        assertThat(model.workloads().stream().filter(w -> w.workload().equals(PolarDbEvaluation.RW))
                .flatMap(w -> w.rows().stream()).mapToLong(SummaryRow::errors).sum()).isPositive();
    }

    /** The verdict rule applied independently ({@link VerdictReference}). */
    static void assertVerdict(Verdict v, Map<String, VerdictReference.Candidate> candidates, boolean higherIsBetter) {
        List<String> judged = VerdictReference.judge(candidates, higherIsBetter);
        List<Map.Entry<String, VerdictReference.Candidate>> sorted = new ArrayList<>(candidates.entrySet());
        Comparator<Map.Entry<String, VerdictReference.Candidate>> byValue =
                Comparator.comparingDouble(e -> e.getValue().value());
        sorted.sort(higherIsBetter ? byValue.reversed() : byValue);
        assertThat(v.winner()).as(v.workload() + " " + v.metric()).isEqualTo(judged.get(0));
        close(v.value(), candidates.get(judged.get(0)).value());
        assertThat(v.runnerUp()).isEqualTo(sorted.get(1).getKey());
        close(v.runnerUpValue(), sorted.get(1).getValue().value());
        List<String> tied = judged.subList(1, judged.size());
        assertThat(v.status()).as(v.workload() + " " + v.metric()).isEqualTo(tied.isEmpty() ? "win" : "tie");
        assertThat(v.tiedWith()).containsExactlyInAnyOrderElementsOf(tied);
    }

    @Test
    void verdicts_throughputP99AndCost_matchTheRuleOnExactFigures() {
        Map<String, Expected> exp = expected();
        Map<String, Double> cost = Map.of("mysql-essd", 3200.0, "mysql-nvme", 4100.0, "polardb", 5602.0,
                "polardb-1p1r", 8400.0);
        for (String workload : List.of(PolarDbEvaluation.RO, PolarDbEvaluation.WO, PolarDbEvaluation.RW)) {
            Map<String, VerdictReference.Candidate> tput = new TreeMap<>();
            Map<String, VerdictReference.Candidate> p99 = new TreeMap<>();
            Map<String, VerdictReference.Candidate> perQps = new TreeMap<>();
            for (String target : cost.keySet()) {
                if (!exp.containsKey(key(workload, target, 128))) {
                    continue;
                }
                Expected peak = null;
                for (int t : PolarDbEvaluation.THREADS) {
                    Expected e = exp.get(key(workload, target, t));
                    if (peak == null || e.qps() > peak.qps()) {
                        peak = e;
                    }
                }
                tput.put(target, new VerdictReference.Candidate(peak.qps(), peak.roundQps()));
                Expected at512 = exp.get(key(workload, target, 512));
                p99.put(target, new VerdictReference.Candidate(at512.p99Ms(), at512.roundP99()));
                double c = cost.get(target);
                perQps.put(target, new VerdictReference.Candidate(c / peak.qps() * 1000,
                        peak.roundQps().stream().map(q -> c / q * 1000).toList()));
            }
            Map<String, Verdict> v = model.verdicts().stream().filter(x -> x.workload().equals(workload))
                    .collect(Collectors.toMap(Verdict::metric, x -> x));
            assertVerdict(v.get("throughput"), tput, true);
            assertVerdict(v.get("p99"), p99, false);
            assertThat(v.get("p99").threads()).isEqualTo(512);
            assertVerdict(v.get("cost"), perQps, false);
        }
        // the published story: PolarDB leads throughput and tail; with a read-only node it leads read-only
        Map<String, Verdict> ro = byMetric(PolarDbEvaluation.RO);
        assertThat(ro.get("throughput").winner()).isEqualTo("polardb-1p1r");
        assertThat(ro.get("throughput").tie()).isFalse();
        assertThat(byMetric(PolarDbEvaluation.RW).get("throughput").winner()).isEqualTo("polardb");
        assertThat(byMetric(PolarDbEvaluation.RW).get("p99").winner()).isEqualTo("polardb");
        assertThat(byMetric(PolarDbEvaluation.WO).get("throughput").winner()).isEqualTo("polardb");
        // read-only cost per QPS: NVMe and cloud disk are about 2% apart, which their rounds cannot tell apart
        assertThat(ro.get("cost").winner()).isEqualTo("mysql-nvme");
        assertThat(ro.get("cost").tie()).isTrue();
        assertThat(ro.get("cost").tiedWith()).contains("mysql-essd");
    }

    static Map<String, Verdict> byMetric(String workload) {
        return model.verdicts().stream().filter(x -> x.workload().equals(workload))
                .collect(Collectors.toMap(Verdict::metric, x -> x));
    }

    @Test
    void cost_perThousandQps_atPeakAndAtComparedConcurrency() {
        Map<String, Expected> exp = expected();
        WorkloadSummary ro = model.workloads().stream().filter(w -> w.workload().equals(PolarDbEvaluation.RO))
                .findFirst().orElseThrow();
        assertThat(ro.atThreads()).isEqualTo(512);
        assertThat(ro.costs()).extracting(Cost::target)
                .containsExactly("mysql-essd", "mysql-nvme", "polardb", "polardb-1p1r");
        for (Cost c : ro.costs()) {
            Expected peak = null;
            int peakThreads = 0;
            for (int t : PolarDbEvaluation.THREADS) {
                Expected e = exp.get(key(PolarDbEvaluation.RO, c.target(), t));
                if (peak == null || e.qps() > peak.qps()) {
                    peak = e;
                    peakThreads = t;
                }
            }
            assertThat(c.peakThreads()).isEqualTo(peakThreads).isEqualTo(256);
            assertThat(c.currency()).isEqualTo("CNY");
            close(c.costPer1000Qps(), c.monthlyCost() / peak.qps() * 1000);
            close(c.qpsPer1000Currency(), peak.qps() / c.monthlyCost() * 1000);
            double at = exp.get(key(PolarDbEvaluation.RO, c.target(), 512)).qps();
            close(c.atQps(), at);
            close(c.atCostPer1000Qps(), c.monthlyCost() / at * 1000);
        }
    }

    @Test
    void costItems_listedWithTheirShare_costFiguresStayOnTheTotal() throws Exception {
        WorkloadSummary ro = model.workloads().stream().filter(w -> w.workload().equals(PolarDbEvaluation.RO))
                .findFirst().orElseThrow();
        Cost polardb = ro.costs().stream().filter(c -> c.target().equals("polardb")).findFirst().orElseThrow();
        assertThat(polardb.monthlyCost()).isEqualTo(5602.0);
        assertThat(polardb.items()).extracting(Cost.CostItem::name)
                .containsExactly("compute", "storage", "operations");
        close(polardb.items().get(0).sharePct(), 3200.0 / 5602 * 100);
        close(polardb.items().get(1).sharePct(), 1500.0 / 5602 * 100);
        close(polardb.items().get(2).sharePct(), 902.0 / 5602 * 100);
        assertThat(ro.costs().stream().filter(c -> !c.target().equals("polardb"))).allMatch(c -> c.items().isEmpty());

        Path html = dir.resolve("items.html");
        Path json = dir.resolve("items.json");
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.HTML, html);
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.JSON, json);
        String page = Files.readString(html);
        assertThat(page).contains("<table class=\"cost-items\" data-workload=\"oltp_read_only\">")
                .contains("<tr data-target=\"polardb\" data-item=\"storage\">")
                .contains("data-key=\"amount\" data-value=\"1500\"")
                .contains("data-key=\"share_pct\" data-value=\"" + (1500.0 / 5602 * 100) + "\"")
                .doesNotContain("data-target=\"mysql-essd\" data-item=");
        JsonNode tree = Json.MAPPER.readTree(Files.readString(json));
        JsonNode costs = tree.get("workloads").get(0).get("costs");
        JsonNode jp = null;
        for (JsonNode c : costs) {
            if (c.get("target").asText().equals("polardb")) {
                jp = c;
            }
        }
        assertThat(jp).isNotNull();
        assertThat(jp.get("items")).hasSize(3);
        assertThat(jp.get("items").get(2).get("name").asText()).isEqualTo("operations");
        assertThat(jp.get("items").get(2).get("amount").asDouble()).isEqualTo(902.0);
        assertThat(jp.get("items").get(2).get("sharePct").asDouble()).isEqualTo(902.0 / 5602 * 100);

        Path md = dir.resolve("items.md");
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.MD, md);
        String currency = polardb.currency();
        assertThat(Files.readString(md))
                .contains("| polardb | compute | 3,200.0 " + currency + " | " + String.format(Locale.ROOT, "%.1f%%",
                        3200.0 / 5602 * 100) + " |")
                .contains("| polardb | storage | 1,500.0 " + currency + " | 26.8% |")
                .contains("| polardb | operations | 902.0 " + currency + " | 16.1% |")
                .doesNotContain("| mysql-essd | compute |");
    }

    @Test
    void scaleOut_polarDbReadOnlyNode_ratioOfPeaks() {
        Map<String, Expected> exp = expected();
        assertThat(model.scaleOut()).hasSize(1);
        ScaleOutRow s = model.scaleOut().get(0);
        assertThat(s.workload()).isEqualTo(PolarDbEvaluation.RO);
        assertThat(s.product()).isEqualTo("PolarDB");
        assertThat(s.nodes()).isEqualTo(2);
        double single = exp.get(key(PolarDbEvaluation.RO, "polardb", 256)).qps();
        double multi = exp.get(key(PolarDbEvaluation.RO, "polardb-1p1r", 256)).qps();
        close(s.ratio(), multi / single);
        assertThat(s.ratio()).isCloseTo(118_436.0 / 69_528, within(0.05)); // the published 1.70
    }

    @Test
    void checklist_decidedFromTheData() {
        Map<String, String> status = model.checklist().stream().collect(Collectors.toMap(Check::id, Check::status));
        assertThat(status).containsEntry("warmup", "pass").containsEntry("rounds", "pass")
                .containsEntry("beyondPeak", "pass").containsEntry("clientCpu", "pass").containsEntry("rtt", "pass")
                .containsEntry("durability", "pass").containsEntry("isolation", "pass").containsEntry("errors", "pass")
                .containsEntry("completed", "pass").containsEntry("warmupSettled", "pass");
        // the fairness profiles agree: every commit flushed (binary log synced too), asynchronous replication
        assertThat(model.environment().fairness()).hasSize(4).allSatisfy(f -> {
            assertThat(f.profile().durability().value()).isEqualTo("yes");
            assertThat(f.profile().replication().value()).isEqualTo("async");
            assertThat(f.profile().isolation().value()).isEqualTo("REPEATABLE READ");
            assertThat(f.cpuSource()).isEqualTo("process"); // the fixture's client-health events are version 1
        });
        // environment: durability first, the differing io capacity highlighted, RTT medians per target
        assertThat(model.environment().variables().get(0).name()).isEqualTo("innodb_flush_log_at_trx_commit");
        assertThat(model.environment().variables().stream().filter(v -> v.name().equals("innodb_io_capacity"))
                .findFirst().orElseThrow().differs()).isTrue();
        assertThat(model.environment().variables().stream().filter(v -> v.name().equals("sync_binlog"))
                .findFirst().orElseThrow().differs()).isFalse();
        assertThat(model.environment().targets()).allSatisfy(t -> assertThat(t.rttMs()).isNotNull());
        assertThat(model.environment().targets().get(0).rttMs()).isCloseTo(0.18, within(0.01));
    }

    @Test
    void htmlJsonCsvMd_carryTheSameNumbers_andNoCredentials() throws Exception {
        Path html = dir.resolve("polardb-evaluation.html");
        Path json = dir.resolve("polardb-evaluation.json");
        Path csv = dir.resolve("polardb-evaluation.csv");
        Path md = dir.resolve("polardb-evaluation.md");
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.HTML, html);
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.JSON, json);
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.CSV, csv);
        ReportGenerator.generate(archive, OPTIONS, ReportFormat.MD, md);
        String page = Files.readString(html);
        JsonNode tree = Json.MAPPER.readTree(Files.readString(json));
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).isEqualTo(String.join(",", CsvReport.COLUMNS));
        assertThat(lines).hasSize(1 + 30);
        Map<String, String[]> csvRows = new HashMap<>();
        lines.stream().skip(1).map(l -> l.split(",", -1)).forEach(c -> csvRows.put(key(c[0], c[1],
                Integer.parseInt(c[2])), c));
        int qpsCol = CsvReport.COLUMNS.indexOf("qps");
        int p99Col = CsvReport.COLUMNS.indexOf("p99_ms");
        int deltaCol = CsvReport.COLUMNS.indexOf("qps_delta_pct");
        int wi = 0;
        for (WorkloadSummary w : model.workloads()) {
            JsonNode jw = tree.get("workloads").get(wi++);
            assertThat(jw.get("workload").asText()).isEqualTo(w.workload());
            for (int i = 0; i < w.rows().size(); i++) {
                SummaryRow r = w.rows().get(i);
                Map<String, Double> htmlRow = ReportGeneratorTest.row(page, r.target(), r.threads(), w.workload());
                assertThat(htmlRow.get("qps")).isEqualTo(r.qps());
                assertThat(htmlRow.get("p99_ms")).isEqualTo(r.p99Ms());
                assertThat(htmlRow.get("qps_delta_pct")).isEqualTo(r.delta().qpsPct());
                assertThat(jw.get("rows").get(i).get("qps").asDouble()).isEqualTo(r.qps());
                assertThat(jw.get("rows").get(i).get("p99Ms").asDouble()).isEqualTo(r.p99Ms());
                String[] c = csvRows.get(key(w.workload(), r.target(), r.threads()));
                assertThat(Double.parseDouble(c[qpsCol])).isEqualTo(r.qps());
                assertThat(Double.parseDouble(c[p99Col])).isEqualTo(r.p99Ms());
                assertThat(Double.parseDouble(c[deltaCol])).isEqualTo(r.delta().qpsPct());
            }
        }
        assertThat(tree.get("verdicts")).hasSize(9);
        assertThat(model.verdictSummary().comparisons()).isEqualTo(9);
        assertThat(model.verdictSummary().decided()).isEqualTo(9);
        assertThat(page).contains("<strong>9 of 9 comparisons have a verdict</strong></p>");
        assertThat(tree.get("verdictSummary").get("text").asText()).isEqualTo("9 of 9 comparisons have a verdict");
        // three rounds everywhere: no result is merely indicative
        assertThat(model.verdicts()).noneMatch(Verdict::indicative);
        assertThat(page).doesNotContain("badge indicative").contains("<span class=\"badge win\">");
        assertThat(tree.get("checklist")).hasSize(model.checklist().size());
        String markdown = Files.readString(md);
        assertThat(markdown).contains("| oltp_read_only | Peak throughput | win | polardb-1p1r |")
                .contains("## oltp_write_only").contains("**pass** Every step completed");
        for (Path p : List.of(html, json, csv, md)) {
            assertThat(Files.readString(p)).as(p.toString()).doesNotContain("hunter2");
        }
    }

    @Test
    void simplifiedChinese_everyLabelTranslated() throws Exception {
        Path html = dir.resolve("polardb-evaluation-zh.html");
        ReportGenerator.generate(archive, OPTIONS.withLocale(ReportOptions.SIMPLIFIED_CHINESE), html);
        String page = Files.readString(html);
        assertThat(page).contains("<html lang=\"zh-CN\">").contains("结论").contains("每 QPS 成本")
                .contains("环境与公平性").contains("方法检查清单").contains("持平").doesNotContain(">Verdict<");
        java.util.Properties en = new java.util.Properties();
        java.util.Properties zh = new java.util.Properties();
        try (var a = getClass().getResourceAsStream("/io/tailstream/reporter/report/messages.properties");
             var b = getClass().getResourceAsStream("/io/tailstream/reporter/report/messages_zh_CN.properties")) {
            en.load(new java.io.InputStreamReader(a, java.nio.charset.StandardCharsets.UTF_8));
            zh.load(new java.io.InputStreamReader(b, java.nio.charset.StandardCharsets.UTF_8));
        }
        assertThat(zh.stringPropertyNames()).isEqualTo(en.stringPropertyNames());
    }
}
