package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opens a generated report in headless Chromium (Debian's {@code chromium} package): charts render, no JS errors. */
class ReportBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path dir;

    @Test
    void report_inHeadlessChromium_drawsEveryChartWithoutConsoleErrors() throws Exception {
        requireChromium();
        SyntheticRun run = ReportGeneratorTest.run("run-browser", 11);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.allRecords(2, 2));
        Path html = dir.resolve("report.html");
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), html);
        assertRenders(html, model, "en");
    }

    /**
     * Every section of a comparison (verdict, environment, summary with deltas, sweep charts with peaks, cost,
     * scale-out, stalls, checklist) in English and Simplified Chinese.
     */
    @Test
    void comparisonReport_enAndZhCn_sweepAndStallChartsRenderWithoutConsoleErrors() throws Exception {
        requireChromium();
        List<FixtureRun.Step> steps = new ArrayList<>();
        for (FixtureRun.Target t : List.of(SeedComparison.ESSD, SeedComparison.POLARDB, SeedComparison.POLARDB_RO)) {
            for (int threads : new int[] {64, 128, 256}) {
                steps.add(new FixtureRun.Step(t, SeedComparison.RO, threads, 1, 10, 2000, 2000,
                        150 + threads / 4.0 * t.nodes(), 3000, 0, List.of("txn"), new double[] {1}, 30, List.of()));
            }
        }
        Path archive = dir.resolve("archive");
        FixtureRun run;
        try (StreamingArchive sink = new StreamingArchive(archive, 1_000_000)) {
            run = new FixtureRun("browser", "browser-plan", 3, 1_767_000_000_000L, steps, false, sink);
        }
        Path stallDir = io.tailstream.reporter.archive.ArchiveLayout.runDir(archive, ReportLoader.STALLS, "browser");
        Files.createDirectories(stallDir);
        long stallAt = run.stepStartMs.get(1) + 2500;
        try (var w = io.tailstream.reporter.parquet.ParquetTableWriter.open(stallDir.resolve("stalls.parquet"),
                ReportScaleTest.STALLS)) {
            w.write(new ReportScaleTest.StallRow(2, "throughput", stallAt, stallAt + 1000, false));
        }
        for (String lang : List.of("en", "zh-CN")) {
            Path html = dir.resolve("comparison-" + lang + ".html");
            ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns()
                    .withBaseline(SeedComparison.ESSD.name()).withLocale(ReportOptions.language(lang)), html);
            assertThat(model.stalls()).hasSize(1);
            assertThat(model.scaleOut()).hasSize(1);
            String rendered = assertRenders(html, model, lang);
            assertThat(rendered).contains("id=\"sweep-0\"").contains("data-check=\"rounds\" data-status=\"flag\"");
        }
    }

    private static void requireChromium() {
        if (!Files.isExecutable(CHROMIUM)) {
            Assumptions.abort("needs headless Chromium at " + CHROMIUM + " (Debian: apt-get install chromium)");
        }
    }

    /** Opens the page, returns the DOM after scripts ran; one canvas per time-series and sweep chart. */
    private String assertRenders(Path html, ReportModel model, String lang) throws Exception {
        Path log = dir.resolve("chromium-" + lang + ".log");
        Path dom = dir.resolve("dom-" + lang + ".html");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished within 90 s").isTrue();
        String stderr = Files.readString(log);
        assertThat(p.exitValue()).as(stderr).isZero();

        String rendered = Files.readString(dom);
        Matcher canvases = Pattern.compile("<canvas").matcher(rendered);
        int count = 0;
        while (canvases.find()) {
            count++;
        }
        long sweeps = model.workloads().stream().filter(w -> w.threadLevels().size() > 1).count();
        assertThat(count).as("one canvas per chart: QPS and P99 per step and per sweep")
                .isEqualTo(2 * model.charts().size() + 2 * (int) sweeps);
        assertThat(rendered).contains("<html lang=\"" + lang + "\"");
        assertThat(stderr.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")).toList())
                .as("console messages").isEmpty();
        return rendered;
    }
}
