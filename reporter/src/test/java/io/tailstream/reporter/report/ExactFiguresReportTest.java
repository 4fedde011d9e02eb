package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.ProofRun.Failure;
import io.tailstream.reporter.ProofRun.Spec;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.DocumentedViewsTest;
import io.tailstream.reporter.query.RunComparison;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every figure of the summary rows against an independent computation over the raw samples, on an archive built to
 * catch the usual mistakes: failures with latencies unlike the successes (dead connections failing in microseconds,
 * lock waits timing out), a step flooded with failures, a heavy tail, steps starting and ending inside a second,
 * two producers per step, a step that failed midway. DuckDB over the same archive judges too.
 */
class ExactFiguresReportTest {

    static final long T0 = 1_767_000_000_000L;
    static final List<String> POINT = List.of("point_select");

    /** Point selects in ~6 µs, but 0.09% take 20 ms: the mean is above P99 and those carry most latency time. */
    static final Spec HEAVY = new Spec("h2-mem", "oltp_point_select", 8, 1, POINT, 1, 337, 1300, 3000, 4000, 6,
            0.0009, 20_000, List.of(new Failure(SampleStatus.DEADLOCK, 0.002, 5, 40)), -1);
    /** ~120 µs, with lock waits timing out after 50 ms and deadlocks: failures must not enter the latencies. */
    static final Spec STEADY = new Spec("h2-file", "oltp_point_select", 8, 1, POINT, 1, 411, 1300, 3000, 3000, 120, 0,
            0, List.of(new Failure(SampleStatus.LOCK_WAIT_TIMEOUT, 0.003, 50_000, 51_000),
            new Failure(SampleStatus.DEADLOCK, 0.002, 100, 300)), -1);
    /** Workers spinning on dead connections: 95% of samples fail in a few µs; QPS must count only the others. */
    static final Spec FLOOD = new Spec("h2-file", "oltp_point_select", 16, 1, POINT, 1, 523, 300, 1000, 30_000, 500,
            0, 0, List.of(new Failure(SampleStatus.CONNECTION_LOST, 0.95, 1, 5)), -1);
    /** YCSB-like reads and updates (RAL/WAL); its second round fails 700 ms into the measurement. */
    static final Spec YCSB = new Spec("h2-mem", "ycsb_a", 4, 1, List.of("read", "update"), 1, 677, 800, 2000, 2000,
            300, 0, 0, List.of(new Failure(SampleStatus.DEADLOCK, 0.004, 10, 20)), -1);

    static final List<Spec> SPECS = List.of(HEAVY, STEADY, HEAVY.withRound(2), STEADY.withRound(2), FLOOD, YCSB,
            YCSB.withRound(2).withFailAfter(700));

    @TempDir
    static Path dir;
    static ProofRun run;
    static Path archive;
    static ReportModel model;

    @BeforeAll
    static void archiveAndLoad() throws Exception {
        run = new ProofRun("proof", 17, T0, SPECS, true);
        archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        model = ReportGenerator.load(archive, ReportOptions.allRuns());
    }

    static WorkloadSummary workload(ReportModel m, String name) {
        return m.workloads().stream().filter(w -> w.workload().equals(name)).findFirst().orElseThrow();
    }

    static SummaryRow row(ReportModel m, String workload, String target, int threads) {
        return workload(m, workload).rows().stream().filter(r -> r.target().equals(target) && r.threads() == threads)
                .findFirst().orElseThrow();
    }

    /** Step ids (1-based) of the specs with that key whose step completed. */
    static List<Integer> completedSteps(ProofRun r, Spec key) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < r.specs.size(); i++) {
            Spec s = r.specs.get(i);
            if (s.target().equals(key.target()) && s.workload().equals(key.workload()) && s.threads() == key.threads()
                    && s.failAfterMs() < 0) {
                out.add(i + 1);
            }
        }
        return out;
    }

    @Test
    void everySummaryRow_equalsTheExactComputation_overRecordedSpans() {
        int checked = 0;
        for (Spec key : List.of(HEAVY, STEADY, FLOOD, YCSB)) {
            SummaryRow r = row(model, key.workload(), key.target(), key.threads());
            List<Integer> steps = completedSteps(run, key);
            ExactFigures.Expected e = run.expected(steps, true);
            ReportGeneratorTest.assertRow(r, e);
            assertThat(r.rounds()).isEqualTo(steps.size());
            assertThat(r.exactSpan()).isTrue();
            assertThat(r.completed()).isTrue();
            assertThat(r.steps()).containsExactlyElementsOf(steps.stream().map(id -> "proof#" + id).toList());
            // the measured span is the recorded one, not the samples' (which differs)
            double recorded = steps.stream().mapToLong(id -> run.spanUs(id, true)).sum() / 1e6;
            double sampled = steps.stream().mapToLong(id -> run.spanUs(id, false)).sum() / 1e6;
            assertThat(r.measuredSeconds()).isEqualTo(recorded).isNotEqualTo(sampled);
            checked++;
        }
        assertThat(checked).isEqualTo(4);
        assertThat(model.figureNotes()).isEmpty();
    }

    @Test
    void duckDbOverTheArchive_agreesOnQpsTpsAndPercentiles() throws Exception {
        // the same definitions written as one SQL statement over the archive's views, as a user would
        String sql = """
                WITH spans AS (
                  SELECT target, threads, sum(measure_end_us - measure_start_us) / 1e6 AS seconds FROM steps
                  WHERE outcome = 'completed' AND workload = 'oltp_point_select' GROUP BY ALL),
                f AS (
                  SELECT st.target, st.threads, sum(CASE WHEN s.status = 'ok' THEN s.queries ELSE greatest(s.queries - 1, 0) END) AS ok_queries,
                         quantile_disc(s.latency_us, 0.999) FILTER (WHERE s.status = 'ok') AS p999,
                         quantile_disc(s.latency_us, 0.9999) FILTER (WHERE s.status = 'ok') AS p9999
                  FROM samples s JOIN steps st USING (run_id, step_id)
                  WHERE NOT s.warmup AND st.outcome = 'completed' AND st.workload = 'oltp_point_select'
                  GROUP BY ALL)
                SELECT f.target, f.threads, f.ok_queries / spans.seconds, f.p999, f.p9999
                FROM f JOIN spans USING (target, threads) ORDER BY ALL""";
        int rows = 0;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                SummaryRow r = row(model, "oltp_point_select", rs.getString(1), rs.getInt(2));
                assertThat(r.qps()).isCloseTo(rs.getDouble(3), within(r.qps() * 1e-9));
                assertThat(r.p999Ms()).isEqualTo(rs.getLong(4) / 1000.0);
                assertThat(r.p9999Ms()).isEqualTo(rs.getLong(5) / 1000.0);
                rows++;
            }
        }
        assertThat(rows).isEqualTo(3);
    }

    /** The example query of docs/report.md gives the row's figures. */
    @Test
    void docsExampleQuery_givesTheRowsFigures() throws Exception {
        String docs = Files.readString(Path.of("..").toAbsolutePath().normalize().resolve("docs/report.md"));
        int from = docs.indexOf("```sql") + "```sql".length();
        String sql = docs.substring(from, docs.indexOf("```", from)).replace("'mariadb'", "'h2-file'");
        SummaryRow r = row(model, "oltp_point_select", "h2-file", 8);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getDouble(1)).isCloseTo(r.qps(), within(r.qps() * 1e-9));
            assertThat(rs.getDouble(2)).isCloseTo(r.tps(), within(r.tps() * 1e-9));
            assertThat(rs.getDouble(3)).isCloseTo(r.errorsPerSecond(), within(r.errorsPerSecond() * 1e-9));
            Object[] p = (Object[]) rs.getArray(4).getArray();
            assertThat(List.of(p)).containsExactly(Math.round(r.p95Ms() * 1000), Math.round(r.p99Ms() * 1000),
                    Math.round(r.p999Ms() * 1000), Math.round(r.p9999Ms() * 1000));
        }
    }

    /** The counted-percentile query of docs/queries.md gives quantile_disc's P99 for every run and step. */
    @Test
    void docsCountedPercentileQuery_equalsQuantileDisc() throws Exception {
        String docs = Files.readString(Path.of("..").toAbsolutePath().normalize().resolve("docs/queries.md"));
        int section = docs.indexOf("## Exact percentiles over many samples");
        int from = docs.indexOf("results/archive \"", section) + "results/archive \"".length();
        String counted = docs.substring(from, docs.indexOf('"', from));
        String sorted = "SELECT run_id, step_id, count(*), quantile_disc(latency_us, 0.99) FROM samples"
                + " WHERE NOT warmup AND status = 'ok' GROUP BY ALL ORDER BY ALL";
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            List<String> expected = rows(st, sorted);
            assertThat(expected).hasSize(SPECS.size());
            assertThat(rows(st, counted)).isEqualTo(expected);
        }
    }

    private static List<String> rows(Statement st, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "/" + rs.getInt(2) + " n=" + rs.getLong(3) + " p99=" + rs.getLong(4));
            }
        }
        return out;
    }

    @Test
    void failedTransactions_countedAsErrors_theirLatenciesApart() {
        SummaryRow r = row(model, "oltp_point_select", "h2-file", 8);
        ExactFigures.Expected e = run.expected(completedSteps(run, STEADY), true);
        assertThat(r.errorsByClass()).containsOnlyKeys("deadlock", "lock_wait_timeout");
        assertThat(r.errorsByClass().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(r.errors());
        // lock waits time out after 50 ms: they would dominate the tail if they were in it
        assertThat(r.failed().maxMs()).isGreaterThan(50);
        assertThat(r.maxMs()).isLessThan(50).isEqualTo(e.ok().max() / 1000.0);
        assertThat(r.failed().count()).isEqualTo(r.errors());
        assertThat(r.tps()).isCloseTo(r.okTransactions() / r.measuredSeconds(), within(1e-6));
        assertThat(r.errorLimitExceeded()).isFalse();
    }

    /** The 230,878-QPS report: workers spinning on dead connections must not count as throughput. */
    @Test
    void floodOfFailures_throughputCountsOnlySuccess_andTheRowLooksIt() throws Exception {
        SummaryRow r = row(model, "oltp_point_select", "h2-file", 16);
        ExactFigures.Expected e = run.expected(completedSteps(run, FLOOD), true);
        long allQueries = run.rows.stream().filter(x -> x.stepId() == 5 && !x.warmup()).mapToLong(ProofRun.Row::queries)
                .sum();
        double inflated = allQueries / e.seconds();
        assertThat(r.qps()).isCloseTo(e.qps(), within(e.qps() * 1e-9)).isLessThan(inflated / 10);
        assertThat(r.errorsPerSecond()).isGreaterThan(10 * r.tps());
        assertThat(r.errorsByClass()).containsOnlyKeys("connection_lost");
        assertThat(r.errorLimitExceeded()).isTrue();
        // failures in a few µs never make the step look faster
        assertThat(r.avgMs()).isGreaterThan(0.3);
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("<tr data-target=\"h2-file\" data-threads=\"16\" class=\"over-error-limit\">")
                .contains("data-error-limit=\"h2-file/16\"").doesNotContain("data-error-limit=\"h2-file/8\"");
        JsonNode json = Json.MAPPER.readTree(JsonReport.write(model, Locale.ENGLISH));
        JsonNode jr = rowNode(json, "oltp_point_select", "h2-file", 16, "rows");
        assertThat(jr.get("errorLimitExceeded").asBoolean()).isTrue();
        assertThat(jr.get("qps").asDouble()).isEqualTo(r.qps());
        assertThat(jr.get("errorsByClass").get("connection_lost").asLong()).isEqualTo(e.errors());
    }

    static JsonNode rowNode(JsonNode json, String workload, String target, int threads, String list) {
        for (JsonNode w : json.get("workloads")) {
            if (!w.get("workload").asText().equals(workload)) {
                continue;
            }
            for (JsonNode r : w.get(list)) {
                if (r.get("target").asText().equals(target) && r.get("threads").asInt() == threads) {
                    return r;
                }
            }
        }
        throw new AssertionError("no " + list + " row " + workload + "/" + target + "/" + threads);
    }

    @Test
    void heavyTail_notedWithBothReasonsAndTheirFigures_onlyWhereItIs() throws Exception {
        SummaryRow heavy = row(model, "oltp_point_select", "h2-mem", 8);
        ExactFigures.Expected e = run.expected(completedSteps(run, HEAVY), true);
        // the fixture is what it claims: the reference model sees the mean above P99 and most time in the tail
        assertThat(e.ok().meanUs()).isGreaterThan(e.ok().p99());
        assertThat(e.ok().slowestSharePct()).isGreaterThan(50);
        assertThat(heavy.heavyTail()).extracting(Text::key)
                .containsExactly("tail.meanAboveP99", "tail.slowestShare");
        assertThat(heavy.heavyTail().get(0).args()).containsExactly(
                String.format(Locale.ROOT, "%.3f", e.ok().meanUs() / 1000), String.format(Locale.ROOT, "%.3f",
                        e.ok().p99() / 1000.0));
        assertThat(heavy.heavyTail().get(1).args()).containsExactly(
                String.format(Locale.ROOT, "%,d", e.ok().slowestCount()),
                String.format(Locale.ROOT, "%,d", e.ok().count()),
                String.format(Locale.ROOT, "%.1f", e.ok().slowestSharePct()));
        for (Spec other : List.of(STEADY, FLOOD, YCSB)) {
            assertThat(row(model, other.workload(), other.target(), other.threads()).heavyTail()).as(other.target())
                    .isEmpty();
        }
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("data-heavy-tail=\"h2-mem/8\"")
                .contains("the slowest 0.1% (" + heavy.heavyTail().get(1).args().get(0) + " of ")
                .doesNotContain("data-heavy-tail=\"h2-file/8\"");
        Map<String, Double> cells = ReportGeneratorTest.row(html, "h2-mem", 8, "oltp_point_select");
        ReportGeneratorTest.assertRow(cells, ReportGeneratorTest.expected(e));
        assertThat(MarkdownReport.write(model, Locale.ENGLISH)).contains("h2-mem [heavy tail]")
                .contains("h2-mem · 8: heavy tail: mean ");
    }

    @Test
    void failedStep_partialFiguresApart_markedWithItsOutcome_neverPooled() throws Exception {
        WorkloadSummary ycsb = workload(model, "ycsb_a");
        assertThat(ycsb.rows()).hasSize(1);
        assertThat(ycsb.rows().get(0).rounds()).isEqualTo(1);
        assertThat(ycsb.incomplete()).singleElement().satisfies(r -> {
            assertThat(r.outcome()).startsWith("failed: connection_lost (not ignored)");
            assertThat(r.steps()).containsExactly("proof#7");
            ReportGeneratorTest.assertRow(r, run.expected(List.of(7), true));
            assertThat(r.ralMs()).isNotNull();
        });
        // RAL and WAL of the completed round, successful reads and updates only
        SummaryRow done = ycsb.rows().get(0);
        List<ProofRun.Row> measured = run.rows.stream().filter(x -> x.stepId() == 6 && !x.warmup() && x.ok())
                .toList();
        assertThat(done.ralMs()).isCloseTo(measured.stream().filter(x -> x.op().equals("read"))
                .mapToLong(ProofRun.Row::latencyUs).average().orElseThrow() / 1000, within(1e-12));
        assertThat(done.walMs()).isCloseTo(measured.stream().filter(x -> x.op().equals("update"))
                .mapToLong(ProofRun.Row::latencyUs).average().orElseThrow() / 1000, within(1e-12));
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("<tr class=\"incomplete\" data-incomplete-target=\"h2-mem\" data-threads=\"4\""
                + " data-steps=\"proof#7\" data-outcome=\"failed: connection_lost (not ignored)");
        // and in what was run
        assertThat(html.substring(html.indexOf("<table id=\"steps\">")))
                .contains("<td class=\"text bad\">failed: connection_lost (not ignored)");
        String csv = CsvReport.write(model, java.util.Locale.ROOT);
        assertThat(csv.lines().filter(l -> l.contains(",failed: connection_lost")).toList()).hasSize(1);
        JsonNode json = Json.MAPPER.readTree(JsonReport.write(model, Locale.ENGLISH));
        assertThat(rowNode(json, "ycsb_a", "h2-mem", 4, "incomplete").get("outcome").asText())
                .startsWith("failed: ");
    }

    @Test
    void compare_usesTheSameExactFigures_andAFailedCandidateStepFailsTheGate() throws Exception {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            List<StepFigure> figures = StepFigureQuery.of(db, List.of("proof"));
            for (Spec key : List.of(HEAVY, STEADY, FLOOD, YCSB)) {
                StepFigure f = figures.stream().filter(x -> x.completed() && x.target().equals(key.target())
                        && x.workload().equals(key.workload()) && x.threads() == key.threads()).findFirst()
                        .orElseThrow();
                SummaryRow r = row(model, key.workload(), key.target(), key.threads());
                assertThat(f.qps()).isEqualTo(r.qps());
                assertThat(f.p99Us() / 1000.0).isEqualTo(r.p99Ms());
                assertThat(f.errorsPerSecond()).isEqualTo(r.errorsPerSecond());
            }
            RunComparison.Result self = RunComparison.compare(db, "proof", "proof", 5);
            assertThat(self.rows()).hasSize(4).allSatisfy(x -> assertThat(x.qpsDeltaPct()).isZero());
            assertThat(self.candidateIncomplete()).singleElement()
                    .satisfies(f -> assertThat(f.outcome()).startsWith("failed: "));
            assertThat(self.regressed()).isTrue();
        }
    }

    /** An archive from producers before control events v3: spans from the samples, and the report says so. */
    @Test
    void withoutRecordedBoundaries_spansFromSamples_andANoteSaysSo() throws Exception {
        ProofRun old = new ProofRun("old", 17, T0, List.of(HEAVY, STEADY), false);
        Path oldArchive = dir.resolve("old-archive");
        TestArchives.write(oldArchive, old.records);
        ReportModel m = ReportGenerator.load(oldArchive, ReportOptions.allRuns());
        for (Spec key : List.of(HEAVY, STEADY)) {
            SummaryRow r = row(m, key.workload(), key.target(), key.threads());
            ReportGeneratorTest.assertRow(r, old.expected(completedSteps(old, key), false));
            assertThat(r.exactSpan()).isFalse();
        }
        assertThat(m.figureNotes()).singleElement().satisfies(t -> {
            assertThat(t.key()).isEqualTo("figures.sampleSpan");
            assertThat(t.args().get(0)).contains("h2-mem · oltp_point_select · 8 thr")
                    .contains("h2-file · oltp_point_select · 8 thr");
        });
        assertThat(ReportGenerator.render(m, Locale.ENGLISH)).contains("data-figure-note=\"figures.sampleSpan\"")
                .contains("divide by the span of the measured samples");
    }

    /** Files written before the v3 columns existed (steps without them): the report opens in every format. */
    @Test
    void olderArchiveFiles_withoutTheNewColumns_reportInEveryFormat() throws Exception {
        ProofRun r = new ProofRun("files", 23, T0, List.of(STEADY, YCSB.withFailAfter(700)), true);
        Path older = dir.resolve("older-files");
        TestArchives.write(older, r.records);
        DocumentedViewsTest.rewrite(older, ArchiveLayout.STEPS, "files", "EXCLUDE (start_us, measure_start_us,"
                + " measure_end_us, reconnects, load_gen_cpu_pct, process_cpu_pct, rtt_method, rtt_samples,"
                + " rtt_min_us, rtt_p50_us, rtt_p99_us, rtt_max_us, cost_items, client_bound, blocks_spooled,"
                + " control_events_spooled, max_spool_bytes)");
        for (ReportFormat format : ReportFormat.values()) {
            Path out = dir.resolve("older." + format.name().toLowerCase(Locale.ROOT));
            ReportModel m = ReportGenerator.generate(older, ReportOptions.allRuns(), format, out);
            assertThat(Files.size(out)).isPositive();
            SummaryRow steady = row(m, STEADY.workload(), STEADY.target(), STEADY.threads());
            ReportGeneratorTest.assertRow(steady, r.expected(List.of(1), false));
            assertThat(m.figureNotes()).extracting(Text::key).containsExactly("figures.sampleSpan");
            assertThat(m.charts()).allSatisfy(c -> assertThat(c.normalized()).isFalse());
            assertThat(workload(m, YCSB.workload()).incomplete()).hasSize(1);
        }
    }

    @Test
    void csvAndMarkdown_carryTheNewFigures() {
        String csv = CsvReport.write(model, java.util.Locale.ROOT);
        List<String> head = List.of(csv.lines().findFirst().orElseThrow().split(","));
        assertThat(head).contains("p999_ms", "p9999_ms", "errors_per_s", "errors_by_class", "failed_p99_ms",
                "heavy_tail", "outcome");
        SummaryRow heavy = row(model, "oltp_point_select", "h2-mem", 8);
        String line = csv.lines().filter(l -> l.startsWith("oltp_point_select,h2-mem,8,")).findFirst().orElseThrow();
        List<String> cells = csvCells(line);
        assertThat(Double.parseDouble(cells.get(head.indexOf("p9999_ms")))).isEqualTo(heavy.p9999Ms());
        assertThat(Double.parseDouble(cells.get(head.indexOf("errors_per_s")))).isEqualTo(heavy.errorsPerSecond());
        assertThat(cells.get(head.indexOf("heavy_tail"))).isEqualTo("true");
        assertThat(cells.get(head.indexOf("outcome"))).isEmpty();
        String md = MarkdownReport.write(model, Locale.ENGLISH);
        assertThat(md).contains("| P99.9 ms | P99.99 ms |").contains("(failed: connection_lost");
    }

    /** The cells of one RFC 4180 line (quoted cells may hold commas and doubled quotes). */
    static List<String> csvCells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }

    @Test
    void htmlCells_equalTheModel_forEveryCompletedRow() throws Exception {
        Path html = dir.resolve("proof.html");
        ReportGenerator.generate(archive, ReportOptions.allRuns(), html);
        String page = Files.readString(html);
        for (Spec key : List.of(HEAVY, STEADY, FLOOD, YCSB)) {
            Map<String, Double> cells = ReportGeneratorTest.row(page, key.target(), key.threads(), key.workload());
            ExactFigures.Expected e = run.expected(completedSteps(run, key), true);
            Map<String, Double> expected = new java.util.HashMap<>(ReportGeneratorTest.expected(e));
            if (key == YCSB) {
                SummaryRow r = row(model, key.workload(), key.target(), key.threads());
                expected.put("ral_ms", r.ralMs());
                expected.put("wal_ms", r.walMs());
            }
            ReportGeneratorTest.assertRow(cells, expected);
        }
    }
}
