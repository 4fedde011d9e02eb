package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportGeneratorTest {

    static final String NASTY_TARGET = "h2 <i>&\"x\"";

    @TempDir
    Path dir;

    /** Two targets, two workloads, one of them with two rounds (merged into one row). */
    static SyntheticRun run(String runId, long seed) {
        return new SyntheticRun(runId, seed, List.of("producer-a", "producer-b"), List.of(
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 4, 1, 1, 1000, 3000),
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 4, 2, 1, 1000, 3000),
                new SyntheticRun.StepSpec(NASTY_TARGET, "oltp_read_write", 8, 1, 20, 1000, 3000)),
                800, 2, 1_750_000_000_000L + seed * 1_000_000);
    }

    /**
     * The exact figures of one summary row, computed independently from the generated samples: its steps' measured
     * samples and spans (recorded boundaries in v3 runs, else the measured samples' span).
     */
    static ExactFigures.Expected exact(List<SyntheticRun> runs, SyntheticRun.StepSpec spec) {
        List<ExactFigures.Step> steps = new ArrayList<>();
        for (SyntheticRun run : runs) {
            boolean v3 = run.control.stream().anyMatch(e -> e instanceof io.tailstream.schemas.event.StepEnded se
                    && se.measureStartEpochMicros() != null);
            for (int i = 0; i < run.steps.size(); i++) {
                SyntheticRun.StepSpec s = run.steps.get(i);
                if (!s.target().equals(spec.target()) || !s.workload().equals(spec.workload())
                        || s.threads() != spec.threads()) {
                    continue;
                }
                int stepId = i + 1;
                List<SyntheticRun.Row> rows = run.rows.stream().filter(r -> r.stepId() == stepId && !r.warmup())
                        .toList();
                long span = v3 ? run.measuredSpanUs(stepId)
                        : rows.stream().mapToLong(SyntheticRun.Row::endUs).max().orElseThrow()
                                - rows.stream().mapToLong(SyntheticRun.Row::startUs).min().orElseThrow();
                steps.add(new ExactFigures.Step(rows.stream().map(r -> new ExactFigures.Sample(r.latencyUs(),
                        r.status(), r.queries(), r.op())).toList(), span));
            }
        }
        return ExactFigures.of(steps);
    }

    /** The data-key values a summary row of these figures must show. */
    static Map<String, Double> expected(ExactFigures.Expected e) {
        Map<String, Double> m = new HashMap<>();
        m.put("transactions", (double) e.samples());
        m.put("qps", e.qps());
        m.put("tps", e.tps());
        m.put("avg_ms", e.ok().meanUs() / 1000);
        m.put("p95_ms", e.ok().p95() / 1000.0);
        m.put("p99_ms", e.ok().p99() / 1000.0);
        m.put("p999_ms", e.ok().p999() / 1000.0);
        m.put("p9999_ms", e.ok().p9999() / 1000.0);
        m.put("max_ms", e.ok().max() / 1000.0);
        m.put("errors_per_s", e.errorsPerSecond());
        m.put("errors", (double) e.errors());
        return m;
    }

    static Map<String, Double> expected(List<SyntheticRun> runs, SyntheticRun.StepSpec spec) {
        return expected(exact(runs, spec));
    }

    /** data-key/data-value pairs of the summary row of a target and thread count. */
    static Map<String, Double> row(String html, String escapedTarget, int threads) {
        return row(html, escapedTarget, threads, null);
    }

    /** Like {@link #row(String, String, int)}, within the summary table of {@code workload} when not null. */
    static Map<String, Double> row(String html, String escapedTarget, int threads, String workload) {
        int from = workload == null ? 0 : html.indexOf("<table class=\"summary\" data-workload=\"" + workload + "\">");
        assertThat(from).as("summary table of " + workload).isGreaterThanOrEqualTo(0);
        int at = html.indexOf("<tr data-target=\"" + escapedTarget + "\" data-threads=\"" + threads + "\"", from);
        assertThat(at).as("row for " + escapedTarget).isGreaterThanOrEqualTo(0);
        String tr = html.substring(at, html.indexOf("</tr>", at));
        Map<String, Double> m = new HashMap<>();
        Matcher mt = Pattern.compile("data-key=\"([a-z0-9_]+)\" data-value=\"([^\"]+)\"").matcher(tr);
        while (mt.find()) {
            m.put(mt.group(1), Double.parseDouble(mt.group(2)));
        }
        return m;
    }

    static void assertRow(Map<String, Double> actual, Map<String, Double> expected) {
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        for (String k : expected.keySet()) {
            assertThat(actual.get(k)).as(k).isCloseTo(expected.get(k), within(Math.abs(expected.get(k)) * 1e-12));
        }
    }

    /** Every figure of a model row against the reference model, incl. those not in the table's data keys. */
    static void assertRow(SummaryRow r, ExactFigures.Expected e) {
        assertThat(r.transactions()).isEqualTo(e.samples());
        assertThat(r.errors()).isEqualTo(e.errors());
        assertThat(r.errorsByClass()).isEqualTo(e.errorsByClass());
        assertThat(r.measuredSeconds()).isCloseTo(e.seconds(), within(1e-9 * e.seconds()));
        assertThat(r.qps()).isCloseTo(e.qps(), within(1e-9 * e.qps()));
        assertThat(r.tps()).isCloseTo(e.tps(), within(1e-9 * e.tps()));
        assertThat(r.errorsPerSecond()).isCloseTo(e.errorsPerSecond(), within(1e-9 * e.errorsPerSecond() + 1e-12));
        assertThat(r.avgMs()).isCloseTo(e.ok().meanUs() / 1000, within(1e-9 * e.ok().meanUs()));
        assertThat(List.of(r.p95Ms(), r.p99Ms(), r.p999Ms(), r.p9999Ms(), r.maxMs())).containsExactly(
                e.ok().p95() / 1000.0, e.ok().p99() / 1000.0, e.ok().p999() / 1000.0, e.ok().p9999() / 1000.0,
                e.ok().max() / 1000.0);
        assertThat(r.slowestTransactions()).isEqualTo(e.ok().slowestCount());
        if (e.ok().slowestSharePct() == null) {
            assertThat(r.slowestSharePct()).isNull();
        } else {
            assertThat(r.slowestSharePct()).isCloseTo(e.ok().slowestSharePct(), within(1e-9));
        }
        if (e.failed() == null) {
            assertThat(r.failed()).isNull();
        } else {
            assertThat(r.failed().count()).isEqualTo(e.failed().count());
            assertThat(r.failed().avgMs()).isCloseTo(e.failed().meanUs() / 1000, within(1e-9 * e.failed().meanUs()));
            assertThat(r.failed().p99Ms()).isEqualTo(e.failed().p99() / 1000.0);
            assertThat(r.failed().maxMs()).isEqualTo(e.failed().max() / 1000.0);
        }
        assertThat(r.roundQps()).hasSameSizeAs(e.roundQps());
        for (int i = 0; i < e.roundQps().size(); i++) {
            assertThat(r.roundQps().get(i)).isCloseTo(e.roundQps().get(i), within(1e-9 * e.roundQps().get(i)));
            assertThat(r.roundP99Ms().get(i)).isEqualTo(e.roundP99Us().get(i) / 1000.0);
        }
    }

    private Path archiveOf(SyntheticRun run) {
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.allRecords(2, 2));
        return archive;
    }

    /** The archive of one producer's short run of {@code workload} on h2-mem, then h2-file. */
    private Path h2MemAndFileArchive(String runId, long seed, String workload) {
        return archiveOf(new SyntheticRun(runId, seed, List.of("producer-a"), List.of(
                new SyntheticRun.StepSpec("h2-mem", workload, 4, 1, 1, 500, 1000),
                new SyntheticRun.StepSpec("h2-file", workload, 4, 1, 1, 500, 1000)),
                400, 1, 1_750_000_000_000L));
    }

    @Test
    void targetsWithoutAFairnessProfile_noVerdict_unknownIsNeverEqual_inHtmlJsonAndMarkdown() throws Exception {
        // the synthetic H2 targets carry neither their storage nor their isolation level
        Path archive = h2MemAndFileArchive("run-1r", 5, "oltp_point_select");
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(model.verdicts()).hasSize(3).allSatisfy(v -> {
            assertThat(v.status()).as(v.metric()).isEqualTo("none");
            // the synthetic samples also fail their warm-up and error checks; the profiles come first
            assertThat(v.failedChecks()).startsWith("durability", "isolation");
            assertThat(v.reasons().get(0).text().key()).isEqualTo("finding.durabilityUnknown");
        });
        Path html = dir.resolve("r.html");
        Path json = dir.resolve("r.json");
        Path md = dir.resolve("r.md");
        ReportGenerator.generate(archive, ReportOptions.allRuns(), ReportFormat.HTML, html);
        ReportGenerator.generate(archive, ReportOptions.allRuns(), ReportFormat.JSON, json);
        ReportGenerator.generate(archive, ReportOptions.allRuns(), ReportFormat.MD, md);
        assertThat(Files.readString(html)).contains("data-status=\"none\"").contains("<span class=\"badge none\">")
                .contains("0 of 3 comparisons have a verdict").doesNotContain("<span class=\"badge win\">");
        var tree = io.tailstream.schemas.event.Json.MAPPER.readTree(Files.readString(json));
        assertThat(tree.get("verdicts").get(0).get("status").asText()).isEqualTo("none");
        assertThat(tree.get("verdicts").get(0).get("reasons").get(0).get("check").asText()).isEqualTo("durability");
        assertThat(Files.readString(md)).contains("| no verdict |").doesNotContain("| win |");
    }

    /** Rewrites every steps file of the archive with {@code replace} (a DuckDB {@code REPLACE} list). */
    static void rewriteSteps(Path archive, String replace) throws Exception {
        rewrite(archive, "steps.parquet", replace);
    }

    /** Rewrites every file named {@code fileName} of the archive with {@code replace} (a DuckDB {@code REPLACE}). */
    static void rewrite(Path archive, String fileName, String replace) throws Exception {
        List<Path> stepFiles;
        try (var files = Files.walk(archive)) {
            stepFiles = files.filter(f -> f.getFileName().toString().equals(fileName)).toList();
        }
        assertThat(stepFiles).isNotEmpty();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
             java.sql.Statement st = c.createStatement()) {
            for (Path f : stepFiles) {
                Path rewritten = f.resolveSibling("rewritten.parquet");
                st.execute("COPY (SELECT * " + replace + " FROM read_parquet('" + f + "')) TO '" + rewritten
                        + "' (FORMAT PARQUET)");
                Files.move(rewritten, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static Check check(Path archive, String id) throws Exception {
        return ReportGenerator.load(archive, ReportOptions.allRuns()).checklist().stream()
                .filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void dataLargerThanBufferPool_passFlagNa_fromTheStepsOptionsAndVariables() throws Exception {
        Path archive = h2MemAndFileArchive("run-ds", 4, "oltp_read_only");
        // the plan did not ask: n/a
        assertThat(check(archive, "dataSize").status()).isEqualTo("na");
        // h2-file asked, 5 GiB of data over a 4 GiB pool: pass, with both sizes
        rewriteSteps(archive, "REPLACE (CASE WHEN target = 'h2-file' THEN"
                + " '{\"expect.dataLargerThanBufferPool\":\"true\",\"tables\":\"1\"}' ELSE options END AS options,"
                + " CASE WHEN target = 'h2-file' THEN '{\"innodb_buffer_pool_size\":\"4294967296\","
                + "\"tailstream.data_bytes\":\"5368709120\"}' ELSE target_variables END AS target_variables)");
        Check pass = check(archive, "dataSize");
        assertThat(pass.status()).isEqualTo("pass");
        assertThat(pass.findings()).hasSize(1);
        assertThat(pass.findings().get(0).key()).isEqualTo("finding.dataSizeOk");
        assertThat(pass.findings().get(0).args()).containsExactly("h2-file · oltp_read_only",
                "5120.0 MiB (5368709120 B)", "4096.0 MiB (4294967296 B)");
        // h2-mem asked too, but its 1 MiB fits the 4 GiB pool: flag naming it and both sizes
        rewriteSteps(archive, "REPLACE ('{\"expect.dataLargerThanBufferPool\":\"true\"}' AS options,"
                + " CASE WHEN target = 'h2-mem' THEN '{\"innodb_buffer_pool_size\":\"4294967296\","
                + "\"tailstream.data_bytes\":\"1048576\"}' ELSE target_variables END AS target_variables)");
        Check flag = check(archive, "dataSize");
        assertThat(flag.status()).isEqualTo("flag");
        assertThat(flag.findings()).singleElement().satisfies(t -> {
            assertThat(t.key()).isEqualTo("finding.dataSize");
            assertThat(t.args()).containsExactly("h2-mem · oltp_read_only", "1.0 MiB (1048576 B)",
                    "4096.0 MiB (4294967296 B)");
        });
        Path html = dir.resolve("ds.html");
        ReportGenerator.generate(archive, ReportOptions.allRuns(), html);
        assertThat(Files.readString(html)).contains("<li data-check=\"dataSize\" data-status=\"flag\">")
                .contains("h2-mem · oltp_read_only: data 1.0 MiB (1048576 B) is not larger than the buffer pool");
        // asked, but the pool size is unknown (not a number): n/a
        rewriteSteps(archive, "REPLACE ('{\"innodb_buffer_pool_size\":\"auto\",\"tailstream.data_bytes\":\"1\"}'"
                + " AS target_variables)");
        assertThat(check(archive, "dataSize").status()).isEqualTo("na");
    }

    @Test
    void archiveWithoutCostItemsColumn_isReadAsNoItems() throws Exception {
        SyntheticRun run = new SyntheticRun("run-old", 3, List.of("producer-a"), List.of(
                new SyntheticRun.StepSpec("h2-file", "oltp_point_select", 4, 1, 1, 500, 1000)),
                400, 1, 1_750_000_000_000L);
        Path archive = archiveOf(run);
        assertThat(ReportGenerator.load(archive, ReportOptions.allRuns()).workloads().get(0).costs().get(0).items())
                .extracting(Cost.CostItem::name).containsExactly("storage", "compute");
        // rewrite every steps file as an archive from before the cost_items column existed
        rewriteSteps(archive, "EXCLUDE (cost_items)");
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        Cost cost = model.workloads().get(0).costs().get(0);
        assertThat(cost.monthlyCost()).isEqualTo(120.0);
        assertThat(cost.items()).isEmpty();
    }

    @Test
    void summaryTable_equalsExactComputationOverMeasuredSamples() throws Exception {
        SyntheticRun run = run("run-a", 7);
        Path archive = archiveOf(run);
        Path out = dir.resolve("report.html");

        long t0 = System.nanoTime();
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), out);
        System.out.printf("report rendered in %d ms, %d bytes%n", (System.nanoTime() - t0) / 1_000_000,
                Files.size(out));
        String html = Files.readString(out);

        assertRow(row(html, "h2-mem", 4), expected(List.of(run), run.steps.get(0)));
        assertRow(row(html, "h2 &lt;i&gt;&amp;&quot;x&quot;", 8), expected(List.of(run), run.steps.get(2)));
        assertThat(model.workloads()).hasSize(2);
        assertThat(model.workloads().get(0).rows().get(0).rounds()).isEqualTo(2);
        assertThat(model.charts()).hasSize(3);
        // windows: one point per one-second window of the step, QPS from the windows' queries
        StepSeries s1 = model.charts().get(0);
        long windows = run.windows.stream().filter(w -> w.stepId() == 1).count();
        assertThat(s1.epochSeconds()).hasSize((int) windows);
        assertThat(s1.qps()[1]).isEqualTo(run.windows.stream().filter(w -> w.stepId() == 1).skip(1).findFirst()
                .orElseThrow().qps());
    }

    /**
     * Each step was run by two producers sharing its threads (4 = 2 + 2, 8 = 4 + 4): the Threads column shows all of
     * them together, and the run's durations table and the model's steps say how the producers split them.
     */
    @Test
    void stepsOfTwoProducers_threadsAreTheirSum_splitShownPerProducer() throws Exception {
        SyntheticRun run = run("run-p", 9);
        Path archive = archiveOf(run);
        Path out = dir.resolve("report.html");
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), out);
        String html = Files.readString(out);

        assertThat(model.workloads()).flatExtracting(WorkloadSummary::rows)
                .extracting(SummaryRow::threads).containsExactlyInAnyOrder(4, 8);
        assertThat(html).contains("data-threads=\"4\"").contains("data-threads=\"8\"");
        assertThat(model.steps()).extracting(StepInfo::producerThreads).containsExactly(
                Map.of("producer-a", 2, "producer-b", 2), Map.of("producer-a", 2, "producer-b", 2),
                Map.of("producer-a", 4, "producer-b", 4));
        assertThat(model.environment().durations()).flatExtracting(Environment.Duration::producerThreads)
                .containsExactlyInAnyOrder("4 = producer-a 2 + producer-b 2", "8 = producer-a 4 + producer-b 4");
        assertThat(html).contains("4 (4 = producer-a 2 + producer-b 2)");
    }

    @Test
    void html_selfContained_escaped_uplotInlined() throws Exception {
        SyntheticRun run = run("run-a", 7);
        Path archive = archiveOf(run);
        Path out = dir.resolve("report.html");
        ReportGenerator.generate(archive, ReportOptions.allRuns(), out);
        String html = Files.readString(out);

        assertThat(html).doesNotContainPattern("(?i)(src|href)\\s*=\\s*[\"']?\\s*(https?:)?//");
        assertThat(html).doesNotContainPattern("(?i)<link\\b").doesNotContainPattern("(?i)@import");
        assertThat(html).doesNotContain("<i>&").contains("h2 &lt;i&gt;&amp;&quot;x&quot;");
        assertThat(html).contains("var uPlot").contains(".uplot");
        // the only script end tags are those of the page's own three script elements
        assertThat(html.split("(?i)</script", -1)).hasSize(4);
    }

    @Test
    void selection_byRunIdAndLatest_andUnknownRunListsExisting() throws Exception {
        SyntheticRun a = run("run-a", 7);
        SyntheticRun b = run("run-b", 8);
        Path archive = dir.resolve("archive");
        List<SyntheticRun.Rec> all = new ArrayList<>(a.allRecords(2, 2));
        all.addAll(b.allRecords(2, 2));
        TestArchives.write(archive, all);

        ReportModel both = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(both.runs()).extracting(RunInfo::runId).containsExactly("run-a", "run-b");
        assertThat(both.workloads().get(0).rows().get(0).rounds()).isEqualTo(4);
        String html = ReportGenerator.render(both, java.util.Locale.ENGLISH);
        assertRow(row(html, "h2-mem", 4), expected(List.of(a, b), a.steps.get(0)));

        assertThat(ReportGenerator.load(archive, ReportOptions.latestRun()).runs())
                .extracting(RunInfo::runId).containsExactly("run-b");
        ReportModel onlyA = ReportGenerator.load(archive, ReportOptions.runs(List.of("run-a")));
        assertRow(row(ReportGenerator.render(onlyA, java.util.Locale.ENGLISH), "h2-mem", 4),
                expected(List.of(a), a.steps.get(0)));
        assertThatThrownBy(() -> ReportGenerator.load(archive, ReportOptions.runs(List.of("nope"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run nope is not in the archive")
                .hasMessageContaining("[run-a, run-b]");
    }
}
