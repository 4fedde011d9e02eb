package io.tailstream.reporter.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.report.ReportModel.RunInfo;
import io.tailstream.reporter.report.ReportModel.StepSeries;
import io.tailstream.reporter.report.ReportModel.SummaryRow;
import io.tailstream.reporter.report.ReportModel.WorkloadSummary;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ResourceBundle;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an archive into a {@link ReportModel} (DuckDB over the Parquet files) and renders it into one
 * self-contained HTML file: Freemarker template with HTML auto-escaping, uPlot's JS and CSS inlined from its
 * WebJar, chart data as JSON in the page. No network access when the page is opened.
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
    private static final String UPLOT_DIR = "META-INF/resources/webjars/uplot/";
    private static final Configuration FREEMARKER = freemarker();

    private ReportGenerator() {}

    /**
     * Reads the archive and writes the HTML report to {@code out} (atomically: a reader never sees half a file).
     *
     * @return the model the report shows
     * @throws IllegalArgumentException if the archive has no runs, or a requested run id is not in it (the message
     *                                  lists the runs that exist)
     */
    public static ReportModel generate(Path archive, ReportOptions options, Path out) throws IOException, SQLException {
        long t0 = System.nanoTime();
        ReportModel model = load(archive, options);
        String html = render(model, options.locale());
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(out.getFileName() + ".tmp");
        Files.writeString(tmp, html, StandardCharsets.UTF_8);
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        LOG.info("report of {} runs, {} steps: {} ({} KB) in {} ms", model.runs().size(), model.charts().size(), out,
                html.length() / 1024, (System.nanoTime() - t0) / 1_000_000);
        return model;
    }

    /** Builds the model of the selected runs. */
    public static ReportModel load(Path archive, ReportOptions options) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            if (!db.has(ArchiveLayout.RUNS) || !db.has(ArchiveLayout.STEPS)) {
                throw new IllegalArgumentException("the archive " + archive + " has no runs (no runs/steps dataset)");
            }
            List<RunInfo> all = runs(db);
            List<RunInfo> selected = select(all, options, archive);
            List<String> ids = selected.stream().map(RunInfo::runId).toList();
            String inRuns = "run_id IN (" + String.join(", ", ids.stream().map(ArchiveDatabase::sqlString).toList())
                    + ")";
            List<WorkloadSummary> workloads = db.has(ArchiveLayout.SAMPLES) ? summaries(db, inRuns) : List.of();
            List<StepSeries> charts = series(db, inRuns);
            String title = selected.size() == 1 ? "tailstream report: " + selected.get(0).planName() + " ("
                    + selected.get(0).runId() + ")" : "tailstream report: " + selected.size() + " runs";
            return new ReportModel(title, System.currentTimeMillis(), selected, workloads, charts);
        }
    }

    private static List<RunInfo> runs(ArchiveDatabase db) throws SQLException {
        List<RunInfo> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, plan_name, started_at_ms, ended_at_ms, samples_sent,"
                     + " outcome FROM runs ORDER BY started_at_ms, run_id")) {
            while (rs.next()) {
                out.add(new RunInfo(rs.getString(1), rs.getString(2), rs.getLong(3), (Long) rs.getObject(4),
                        (Long) rs.getObject(5), rs.getString(6)));
            }
        }
        return out;
    }

    private static List<RunInfo> select(List<RunInfo> all, ReportOptions options, Path archive) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("the archive " + archive + " has no runs");
        }
        if (options.latest()) {
            return List.of(all.get(all.size() - 1));
        }
        if (options.runIds().isEmpty()) {
            return all;
        }
        Map<String, RunInfo> byId = new LinkedHashMap<>();
        all.forEach(r -> byId.put(r.runId(), r));
        List<RunInfo> out = new ArrayList<>();
        for (String id : options.runIds()) {
            RunInfo r = byId.get(id);
            if (r == null) {
                throw new IllegalArgumentException("run " + id + " is not in the archive " + archive
                        + "; runs there: " + byId.keySet());
            }
            out.add(r);
        }
        return out;
    }

    private static List<WorkloadSummary> summaries(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = """
                WITH m AS (
                  SELECT s.run_id, s.step_id, st.target, st.workload, st.threads, s.latency_us, s.status, s.queries,
                         s.start_us, s.start_us + s.latency_us AS end_us
                  FROM samples s JOIN steps st ON s.run_id = st.run_id AND s.step_id = st.step_id
                  WHERE NOT s.warmup AND s.%1$s),
                per_step AS (
                  SELECT run_id, step_id, any_value(target) AS target, any_value(workload) AS workload,
                         any_value(threads) AS threads, max(end_us) - min(start_us) AS span_us
                  FROM m GROUP BY run_id, step_id),
                spans AS (
                  SELECT target, workload, threads, count(*) AS rounds, sum(span_us) AS span_us
                  FROM per_step GROUP BY target, workload, threads)
                SELECT m.workload, m.target, m.threads, any_value(spans.rounds), count(*),
                       any_value(spans.span_us), sum(m.queries), count(*) FILTER (WHERE m.status = 'ok'),
                       avg(m.latency_us), quantile_disc(m.latency_us, 0.95), quantile_disc(m.latency_us, 0.99),
                       max(m.latency_us)
                FROM m JOIN spans ON m.target = spans.target AND m.workload = spans.workload
                                 AND m.threads = spans.threads
                GROUP BY m.workload, m.target, m.threads
                ORDER BY m.workload, m.target, m.threads
                """.formatted(inRuns);
        Map<String, List<SummaryRow>> byWorkload = new TreeMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String workload = rs.getString(1);
                long n = rs.getLong(5);
                double seconds = rs.getLong(6) / 1e6;
                long ok = rs.getLong(8);
                byWorkload.computeIfAbsent(workload, k -> new ArrayList<>()).add(new SummaryRow(
                        rs.getString(2), workload, rs.getInt(3), rs.getInt(4), n, seconds,
                        seconds > 0 ? rs.getLong(7) / seconds : 0, seconds > 0 ? ok / seconds : 0,
                        rs.getDouble(9) / 1000, rs.getLong(10) / 1000.0, rs.getLong(11) / 1000.0,
                        rs.getLong(12) / 1000.0, n - ok));
            }
        }
        return byWorkload.entrySet().stream().map(e -> new WorkloadSummary(e.getKey(), e.getValue())).toList();
    }

    private static List<StepSeries> series(ArchiveDatabase db, String inRuns) throws SQLException {
        List<StepSeries> out = new ArrayList<>();
        String stepsSql = "SELECT run_id, step_id, target, workload, threads, round FROM steps WHERE " + inRuns
                + " ORDER BY started_at_ms, run_id, step_id";
        Map<String, Long> measureStart = new HashMap<>();
        if (db.has(ArchiveLayout.SAMPLES)) {
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery("SELECT run_id, step_id, min(start_us) FROM samples WHERE NOT warmup"
                         + " AND " + inRuns + " GROUP BY 1, 2")) {
                while (rs.next()) {
                    measureStart.put(rs.getString(1) + "/" + rs.getInt(2), rs.getLong(3) / 1000);
                }
            }
        }
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(stepsSql)) {
            int i = 0;
            while (rs.next()) {
                String run = rs.getString(1);
                int step = rs.getInt(2);
                List<double[]> points = db.has(ArchiveLayout.WINDOWS) ? windowPoints(db, run, step) : List.of();
                if (points.isEmpty() && db.has(ArchiveLayout.SAMPLES)) {
                    points = samplePoints(db, run, step);
                }
                long[] t = new long[points.size()];
                double[] qps = new double[points.size()];
                double[] p99 = new double[points.size()];
                for (int k = 0; k < points.size(); k++) {
                    t[k] = (long) points.get(k)[0];
                    qps[k] = points.get(k)[1];
                    p99[k] = points.get(k)[2];
                }
                out.add(new StepSeries("chart-" + i++, run, step, rs.getString(3), rs.getString(4), rs.getInt(5),
                        rs.getInt(6), t, qps, p99, measureStart.get(run + "/" + step)));
            }
        }
        return out;
    }

    /** Points (epoch s, qps, p99 ms) from the step's all-ops windows, merging repeated rows of a window. */
    private static List<double[]> windowPoints(ArchiveDatabase db, String run, int step) throws SQLException {
        String sql = "SELECT window_start_ms, window_end_ms, queries, p99_us, histogram FROM windows"
                + " WHERE run_id = ? AND step_id = ? AND op = '*' ORDER BY window_start_ms";
        List<double[]> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            ps.setString(1, run);
            ps.setInt(2, step);
            try (ResultSet rs = ps.executeQuery()) {
                long start = Long.MIN_VALUE;
                long end = 0;
                long queries = 0;
                long p99 = 0;
                Histogram merged = null;
                String firstHistogram = null;
                while (rs.next()) {
                    long s = rs.getLong(1);
                    if (s != start && start != Long.MIN_VALUE) {
                        out.add(point(start, end, queries, merged != null ? merged.getValueAtPercentile(99) : p99));
                        merged = null;
                        queries = 0;
                    }
                    if (s == start) {
                        // a second row of the same window (late samples): merge histograms exactly
                        if (merged == null) {
                            merged = LatencyHistograms.fromBase64(firstHistogram);
                        }
                        merged.add(LatencyHistograms.fromBase64(rs.getString(5)));
                    } else {
                        firstHistogram = rs.getString(5);
                        p99 = rs.getLong(4);
                    }
                    start = s;
                    end = rs.getLong(2);
                    queries += rs.getLong(3);
                }
                if (start != Long.MIN_VALUE) {
                    out.add(point(start, end, queries, merged != null ? merged.getValueAtPercentile(99) : p99));
                }
            }
        }
        return out;
    }

    private static double[] point(long startMs, long endMs, long queries, long p99Us) {
        return new double[] {startMs / 1000.0, queries / ((endMs - startMs) / 1000.0), p99Us / 1000.0};
    }

    /** Points per completion second from raw samples, for steps without windows. */
    private static List<double[]> samplePoints(ArchiveDatabase db, String run, int step) throws SQLException {
        String sql = "SELECT (start_us + latency_us) // 1000000 AS sec, sum(queries), quantile_disc(latency_us, 0.99)"
                + " FROM samples WHERE run_id = ? AND step_id = ? GROUP BY sec ORDER BY sec";
        List<double[]> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            ps.setString(1, run);
            ps.setInt(2, step);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new double[] {rs.getLong(1), rs.getLong(2), rs.getLong(3) / 1000.0});
                }
            }
        }
        return out;
    }

    // ---- rendering ----

    /** Renders the model as one self-contained HTML page. */
    public static String render(ReportModel model, Locale locale) {
        Map<String, Object> root = new HashMap<>();
        root.put("model", model);
        root.put("msg", messages(locale));
        root.put("lang", locale.toLanguageTag());
        root.put("uplotJs", scriptSafe(resource(UPLOT_DIR + uplotVersion() + "/dist/uPlot.iife.min.js")));
        root.put("uplotCss", resource(UPLOT_DIR + uplotVersion() + "/dist/uPlot.min.css"));
        root.put("chartJson", scriptSafe(chartJson(model)));
        try {
            Template t = FREEMARKER.getTemplate("report.ftlh");
            StringWriter w = new StringWriter();
            t.process(root, w);
            return w.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("loading the report template", e);
        } catch (TemplateException e) {
            throw new IllegalStateException("rendering the report template: " + e.getMessage(), e);
        }
    }

    private static String chartJson(ReportModel model) {
        ArrayNode charts = Json.MAPPER.createArrayNode();
        for (StepSeries s : model.charts()) {
            ObjectNode c = charts.addObject();
            c.put("id", s.domId());
            c.put("measureStart", s.measureStartMs() == null ? null : s.measureStartMs() / 1000.0);
            ArrayNode t = c.putArray("t");
            ArrayNode qps = c.putArray("qps");
            ArrayNode p99 = c.putArray("p99");
            for (int i = 0; i < s.epochSeconds().length; i++) {
                t.add(s.epochSeconds()[i]);
                qps.add(s.qps()[i]);
                p99.add(s.p99Ms()[i]);
            }
        }
        return Json.writeString(charts);
    }

    /** Text safe inside a {@code <script>} element: no {@code </script>}, no {@code <!--}. */
    static String scriptSafe(String js) {
        return js.replace("</", "<\\/").replace("<!--", "<\\!--");
    }

    private static Map<String, String> messages(Locale locale) {
        ResourceBundle b = ResourceBundle.getBundle("io.tailstream.reporter.report.messages", locale);
        Map<String, String> m = new HashMap<>();
        for (String k : b.keySet()) {
            m.put(k, b.getString(k));
        }
        return m;
    }

    private static String uplotVersion() {
        String path = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
        try (InputStream in = ReportGenerator.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("uPlot WebJar not on the class path (" + path + " missing)");
            }
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    private static String resource(String path) {
        try (InputStream in = ReportGenerator.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("resource " + path + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading resource " + path, e);
        }
    }

    private static Configuration freemarker() {
        Configuration c = new Configuration(Configuration.VERSION_2_3_34);
        c.setClassForTemplateLoading(ReportGenerator.class, "/io/tailstream/reporter/report");
        c.setDefaultEncoding("UTF-8");
        c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        c.setLogTemplateExceptions(false);
        c.setWrapUncheckedExceptions(true);
        c.setFallbackOnNullLoopVariable(false);
        // .ftlh templates escape every ${} as HTML unless ?no_esc says otherwise
        c.setRecognizeStandardFileExtensions(true);
        c.setNumberFormat("computer");
        c.setLocale(Locale.ROOT);
        return c;
    }
}
