package io.tailstream.reporter.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.HeadlessChromium;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trend page in headless Chromium: one chart per series, drawn without a script error. */
class TrendPageBrowserIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void page_drawsOneChartPerSeries() throws Exception {
        HeadlessChromium.require();
        Path archive = dir.resolve("archive");
        TrendQueryTest.writeHistory(archive);
        List<Series> series;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            series = TrendQuery.of(db, TrendFilter.ALL, Metric.QPS,
                    new ChangePointDetector(ChangePointSettings.DEFAULTS));
        }
        Path html = dir.resolve("trend.html");
        Files.writeString(html, TrendPage.render(series, Metric.QPS, ChangePointSettings.DEFAULTS, 0));
        String dom = HeadlessChromium.dumpDom(html, dir, "trend");
        assertThat(Pattern.compile("<canvas").matcher(dom).results().count()).isEqualTo(series.size()).isOne();
        assertThat(dom).contains("segment mean");
    }
}
