package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.HeadlessChromium;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.StreamingArchive;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.event.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opens a generated report in headless Chromium (Debian's {@code chromium} package): charts render, no JS errors. */
class ReportBrowserIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void report_inHeadlessChromium_drawsEveryChartWithoutConsoleErrors() throws Exception {
        HeadlessChromium.require();
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
        HeadlessChromium.require();
        List<FixtureRun.Step> steps = new ArrayList<>();
        for (FixtureRun.Target t : List.of(PolarDbEvaluation.ESSD, PolarDbEvaluation.POLARDB,
                PolarDbEvaluation.POLARDB_RO)) {
            for (int threads : new int[] {64, 128, 256}) {
                steps.add(new FixtureRun.Step(t, PolarDbEvaluation.RO, threads, 1, 10, 2000, 2000,
                        150 + threads / 4.0 * t.nodes(), 3000, 0, List.of("txn"), new double[] {1}, 30, List.of()));
            }
        }
        Path archive = dir.resolve("archive");
        FixtureRun run;
        try (StreamingArchive sink = new StreamingArchive(archive, 1_000_000)) {
            run = new FixtureRun("browser", "browser-plan", 3, 1_767_000_000_000L, steps, false, sink);
        }
        Path stallDir = io.tailstream.reporter.archive.ArchiveLayout.runDir(archive,
                io.tailstream.reporter.archive.ArchiveLayout.STALLS, "browser");
        Files.createDirectories(stallDir);
        long stallAt = run.stepStartMs.get(1) + 2500;
        try (var w = io.tailstream.reporter.parquet.ParquetTableWriter.open(stallDir.resolve("stalls.parquet"),
                ReportScaleTest.STALLS)) {
            w.write(new ReportScaleTest.StallRow(2, "throughput", stallAt, stallAt + 1000, false));
        }
        for (String lang : List.of("en", "zh-CN")) {
            Path html = dir.resolve("comparison-" + lang + ".html");
            ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns()
                    .withBaseline(PolarDbEvaluation.ESSD.name()).withLocale(ReportOptions.language(lang)), html);
            assertThat(model.stalls()).hasSize(1);
            assertThat(model.scaleOut()).hasSize(1);
            String rendered = assertRenders(html, model, lang);
            assertThat(rendered).contains("id=\"sweep-0\"").contains("data-check=\"rounds\" data-status=\"flag\"");
        }
    }

    /**
     * A report whose throughput axes reach 1.1 M and 550 k QPS (a label once read "50,000" for 550,000): every text
     * drawn on every chart canvas — tick labels, axis labels, peak labels — lies inside its canvas. Measured in the
     * page: a script placed before the charts' code wraps the canvas's {@code fillText}, takes each text's box from
     * {@code measureText} (actual bounding box, in the canvas's current transform), and after the page has drawn
     * writes every canvas's size and texts into the DOM, which headless Chromium dumps.
     */
    @Test
    void largeThroughput_everyTextDrawnOnACanvasLiesInsideIt() throws Exception {
        HeadlessChromium.require();
        List<ProofRun.Spec> specs = new ArrayList<>();
        for (String target : List.of("fast", "slow")) {
            for (int threads : new int[] {64, 128}) {
                // 2 producers x 1,100 transactions/s x 500 (250) statements: 1.1 M (550 k) QPS
                specs.add(new ProofRun.Spec(target, "oltp_read_only", threads, 1, List.of("read_only"),
                        target.equals("fast") ? 500 : 250, 337, 300, 1500, 1100 * (threads / 64.0), 800, 0, 0,
                        List.of(), -1));
            }
        }
        ProofRun run = new ProofRun("large", 21, 1_767_000_000_000L, specs, true);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        Path html = dir.resolve("large.html");
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), html);
        assertThat(model.workloads().get(0).rows()).anySatisfy(r -> assertThat(r.qps()).isGreaterThan(1e6));
        String page = Files.readString(html);
        Path measured = dir.resolve("measured.html");
        Files.writeString(measured, page.replaceFirst("<head>", "<head><script>" + MEASURE_TEXTS + "</script>"));

        String dom = dumpDom(measured, "measure");
        int from = dom.indexOf("<pre id=\"text-boxes\">");
        assertThat(from).as("the page wrote its measurements").isGreaterThanOrEqualTo(0);
        String json = dom.substring(dom.indexOf('>', from) + 1, dom.indexOf("</pre>", from))
                .replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        JsonNode canvases = Json.MAPPER.readTree(json);
        long sweeps = model.workloads().stream().filter(w -> w.threadLevels().size() > 1).count();
        assertThat(canvases.size()).isEqualTo(2 * model.charts().size() + 2 * (int) sweeps);
        List<String> outside = new ArrayList<>();
        List<String> qpsLabels = new ArrayList<>();
        int texts = 0;
        for (JsonNode c : canvases) {
            double w = c.get("width").asDouble();
            double h = c.get("height").asDouble();
            assertThat(c.get("texts").size()).as("texts drawn on canvas %s of %s", c.get("index"), c.get("chart"))
                    .isGreaterThanOrEqualTo(3);
            for (JsonNode t : c.get("texts")) {
                texts++;
                double tol = 0.5;
                if (t.get("left").asDouble() < -tol || t.get("right").asDouble() > w + tol
                        || t.get("top").asDouble() < -tol || t.get("bottom").asDouble() > h + tol) {
                    outside.add(c.get("chart").asText() + " canvas " + c.get("index") + " (" + w + "x" + h + "): '"
                            + t.get("text").asText() + "' at [" + t.get("left") + ", " + t.get("right") + "] x ["
                            + t.get("top") + ", " + t.get("bottom") + "]");
                }
                if (c.get("qps").asBoolean()) {
                    qpsLabels.add(t.get("text").asText());
                }
            }
        }
        assertThat(texts).isGreaterThan(50);
        assertThat(outside).as("texts outside their canvas").isEmpty();
        // the throughput axes speak in compact units
        assertThat(qpsLabels).anyMatch(l -> l.matches("[0-9.]+M")).anyMatch(l -> l.matches("[0-9.]+k"))
                .noneMatch(l -> l.matches(".*\\d{4,}.*"));
    }

    /** The measuring script injected before the page's own (see the test above). */
    private static final String MEASURE_TEXTS = """
            (function () {
              var drawn = [];
              var fillText = CanvasRenderingContext2D.prototype.fillText;
              CanvasRenderingContext2D.prototype.fillText = function (text, x, y) {
                var m = this.measureText(text), t = this.getTransform();
                var xs = [x - m.actualBoundingBoxLeft, x + m.actualBoundingBoxRight];
                var ys = [y - m.actualBoundingBoxAscent, y + m.actualBoundingBoxDescent];
                var px = [], py = [];
                xs.forEach(function (a) { ys.forEach(function (b) {
                  px.push(t.a * a + t.c * b + t.e); py.push(t.b * a + t.d * b + t.f); }); });
                drawn.push({ canvas: this.canvas, text: String(text), left: Math.min.apply(null, px),
                  right: Math.max.apply(null, px), top: Math.min.apply(null, py), bottom: Math.max.apply(null, py) });
                return fillText.apply(this, arguments);
              };
              window.addEventListener("load", function () {
                setTimeout(function () {
                  var out = Array.prototype.map.call(document.querySelectorAll("canvas"), function (c, i) {
                    var chart = c.closest(".charts"), box = c.closest(".qps, .p99");
                    return { index: i, chart: chart ? chart.id : "", qps: !!box && box.classList.contains("qps"),
                      width: c.width, height: c.height,
                      texts: drawn.filter(function (d) { return d.canvas === c; }).map(function (d) {
                        return { text: d.text, left: d.left, right: d.right, top: d.top, bottom: d.bottom }; }) };
                  });
                  var pre = document.createElement("pre");
                  pre.id = "text-boxes";
                  pre.textContent = JSON.stringify(out);
                  document.body.appendChild(pre);
                }, 1000);
              });
            })();
            """;

    private String dumpDom(Path html, String name) throws Exception {
        return HeadlessChromium.dumpDom(html, dir, name);
    }

    /** Opens the page, returns the DOM after scripts ran; one canvas per time-series and sweep chart. */
    private String assertRenders(Path html, ReportModel model, String lang) throws Exception {
        String rendered = dumpDom(html, lang);
        Matcher canvases = Pattern.compile("<canvas").matcher(rendered);
        int count = 0;
        while (canvases.find()) {
            count++;
        }
        long sweeps = model.workloads().stream().filter(w -> w.threadLevels().size() > 1).count();
        assertThat(count).as("one canvas per chart: QPS and P99 per step and per sweep")
                .isEqualTo(2 * model.charts().size() + 2 * (int) sweeps);
        assertThat(rendered).contains("<html lang=\"" + lang + "\"");
        return rendered;
    }
}
