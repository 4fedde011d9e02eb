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
        if (!Files.isExecutable(CHROMIUM)) {
            Assumptions.abort("needs headless Chromium at " + CHROMIUM + " (Debian: apt-get install chromium)");
        }
        SyntheticRun run = ReportGeneratorTest.run("run-browser", 11);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.allRecords(2, 2));
        Path html = dir.resolve("report.html");
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), html);

        Path log = dir.resolve("chromium.log");
        Path dom = dir.resolve("dom.html");
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
        assertThat(count).as("one canvas per chart: QPS and P99 per step").isEqualTo(2 * model.charts().size());
        assertThat(stderr.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")).toList())
                .as("console messages").isEmpty();
    }
}
