package io.tailstream.reporter.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import freemarker.template.Configuration;
import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.history.Metric;
import io.tailstream.reporter.history.Series;
import io.tailstream.reporter.history.TrendFilter;
import io.tailstream.reporter.history.TrendPage;
import io.tailstream.reporter.history.TrendQuery;
import io.tailstream.reporter.output.HtmlPages;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.TpccSamples;
import io.tailstream.reporter.report.WorkloadSummary.Sweep;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an archive into a {@link ReportModel} (DuckDB over the Parquet files) and writes it as one self-contained
 * HTML file (Freemarker template with HTML auto-escaping, uPlot's JS and CSS inlined from its WebJar, chart data as
 * JSON in the page; no network access when the page is opened) or as a json/csv/md summary ({@link ReportFormat}).
 *
 * <p>Numbers: summary tables are computed exactly from raw samples of the measurement phase; the time series
 * come from the aggregator's windows (op {@code *}; several rows of one window, e.g. late samples, are merged by
 * re-merging their HdrHistograms, never by averaging percentiles), or from raw samples per completion second when
 * a step has no windows.
 *
 * <p>Thread safe: stateless apart from the shared, immutable Freemarker configuration.
 */
public final class ReportGenerator {

    private static final Logger LOG = LoggerFactory.getLogger(ReportGenerator.class);
    private static final Configuration FREEMARKER = HtmlPages.freemarker(ReportGenerator.class,
            "/io/tailstream/reporter/report");

    private ReportGenerator() {}

    /**
     * Reads the archive and writes the HTML report to {@code out} (atomically: a reader never sees half a file).
     *
     * @return the model the report shows
     * @throws IllegalArgumentException if the archive has no runs, a requested run id or plan is not in it (the
     *                                  message lists what exists), or the baseline target is not in the runs
     */
    public static ReportModel generate(Path archive, ReportOptions options, Path out) throws IOException, SQLException {
        return generate(archive, options, ReportFormat.HTML, out);
    }

    /**
     * Like {@link #generate(Path, ReportOptions, Path)}, in any {@link ReportFormat}. An HTML report of plans the
     * archive holds other runs of also gets their trend page beside it ({@link #trendPage}), which it links.
     */
    public static ReportModel generate(Path archive, ReportOptions options, ReportFormat format, Path out)
            throws IOException, SQLException {
        long t0 = System.nanoTime();
        ReportModel model = load(archive, options);
        long t1 = System.nanoTime();
        String text;
        if (format == ReportFormat.HTML && model.history() != null) {
            Path trend = trendPage(out);
            writeAtomically(trend, trend(archive, model));
            text = render(model, options.locale(), trend.getFileName().toString());
        } else {
            text = format.render(model, options.locale());
        }
        writeAtomically(out, text);
        LOG.info("{} report of {} runs, {} steps: {} ({} KB); loaded in {} ms, rendered in {} ms", format,
                model.runs().size(), model.charts().size(), out, Files.size(out) / 1024, (t1 - t0) / 1_000_000,
                (System.nanoTime() - t1) / 1_000_000);
        return model;
    }

    /** The trend page of an HTML report: {@code NAME-trend.html} beside {@code NAME.html}. */
    public static Path trendPage(Path report) {
        String name = report.getFileName().toString();
        String stem = name.toLowerCase(Locale.ROOT).endsWith(".html") ? name.substring(0, name.length() - 5) : name;
        return report.resolveSibling(stem + "-trend.html");
    }

    /**
     * The trend of every series of the archive on a (target, workload) the report shows, change points by the
     * default settings: of QPS, and for TPC-C of tpmC, the throughput it is judged on.
     */
    private static String trend(Path archive, ReportModel model) throws SQLException {
        Set<String> shown = new HashSet<>();
        model.steps().forEach(s -> shown.add(s.target() + "\n" + s.workload()));
        List<Series> series = new ArrayList<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, TrendQuery.DATASETS)) {
            ChangePointDetector detector = new ChangePointDetector(ChangePointSettings.DEFAULTS);
            for (Metric metric : List.of(Metric.QPS, Metric.TPMC)) {
                TrendQuery.of(db, TrendFilter.ALL, metric, detector).stream()
                        .filter(s -> shown.contains(s.key().target() + "\n" + s.key().workload())
                                && TpccSamples.isTpcc(s.key().workload()) == (metric == Metric.TPMC))
                        .forEach(series::add);
            }
        }
        return TrendPage.render(series, Metric.QPS, ChangePointSettings.DEFAULTS, model.generatedAtMs());
    }

    /** Writes {@code text} to {@code out} so that a reader never sees half a file. */
    private static void writeAtomically(Path out, String text) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(out.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Builds the model of the selected runs. */
    public static ReportModel load(Path archive, ReportOptions options) throws SQLException {
        return ReportLoader.load(archive, options);
    }

    // ---- rendering ----

    /** Renders the model as one self-contained HTML page. */
    public static String render(ReportModel model, Locale locale) {
        return render(model, locale, null);
    }

    /** Renders the model as one self-contained HTML page linking its trend page ({@code trendLink}, or none). */
    static String render(ReportModel model, Locale locale, String trendLink) {
        Map<String, Object> root = new HashMap<>();
        root.put("model", model);
        if (trendLink != null) {
            root.put("trendLink", trendLink);
        }
        root.put("msg", Messages.of(locale).map());
        root.put("lang", locale.toLanguageTag());
        root.put("uplotJs", HtmlPages.uplotJs());
        root.put("uplotCss", HtmlPages.uplotCss());
        root.put("chartJson", HtmlPages.jsonSafe(chartJson(model)));
        return HtmlPages.render(FREEMARKER, "report.ftlh", root);
    }

    /** Chart data: time series per step and concurrency sweeps per workload; display precision only. */
    static String chartJson(ReportModel model) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode charts = root.putArray("series");
        for (StepSeries s : model.charts()) {
            ObjectNode c = charts.addObject();
            c.put("id", s.domId());
            if (s.measureStartMs() != null) {
                c.put("measureStart", s.measureStartMs() / 1000.0);
            }
            if (s.measureEndMs() != null) {
                c.put("measureEnd", s.measureEndMs() / 1000.0);
            }
            longs(c.putArray("qt"), s.epochSeconds());
            doubles(c.putArray("q"), s.qps(), 10);
            longs(c.putArray("pt"), s.p99Seconds());
            doubles(c.putArray("p"), s.p99Ms(), 1000);
            ArrayNode stalls = c.putArray("stalls");
            s.stalls().forEach(x -> stalls.addArray().add(x[0]).add(x[1]));
            if (s.server() != null) {
                ObjectNode server = c.putObject("server");
                lines(server.putArray("sessions"), s.server().sessions());
                lines(server.putArray("pressure"), s.server().pressure());
            }
        }
        ArrayNode sweeps = root.putArray("sweeps");
        for (int i = 0; i < model.workloads().size(); i++) {
            WorkloadSummary w = model.workloads().get(i);
            ObjectNode n = sweeps.addObject();
            n.put("id", "sweep-" + i);
            ArrayNode levels = n.putArray("levels");
            w.threadLevels().forEach(levels::add);
            ArrayNode targets = n.putArray("targets");
            for (Sweep s : w.sweep()) {
                ObjectNode t = targets.addObject();
                t.put("name", s.target());
                t.put("peak", s.peakIndex());
                ArrayNode q = t.putArray("qps");
                s.qps().forEach(v -> q.add(v == null ? null : (Double) round(v, 10)));
                ArrayNode p = t.putArray("p99");
                s.p99Ms().forEach(v -> p.add(v == null ? null : (Double) round(v, 1000)));
            }
        }
        return Json.writeString(root);
    }

    /** Chart lines: label, times (epoch s, to the ms) and values (a failed reading null: a gap). */
    private static void lines(ArrayNode a, List<ServerChart.Line> lines) {
        for (ServerChart.Line l : lines) {
            ObjectNode n = a.addObject();
            n.put("label", l.label());
            doubles(n.putArray("t"), l.epochSeconds(), 1000);
            doubles(n.putArray("v"), l.values(), 100);
        }
    }

    private static void longs(ArrayNode a, long[] v) {
        for (long x : v) {
            a.add(x);
        }
    }

    private static void doubles(ArrayNode a, double[] v, double scale) {
        for (double x : v) {
            if (Double.isNaN(x)) {
                a.addNull();
            } else {
                a.add(round(x, scale));
            }
        }
    }

    private static double round(double v, double scale) {
        return Math.round(v * scale) / scale;
    }
}
