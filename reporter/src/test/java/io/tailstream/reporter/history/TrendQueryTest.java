package io.tailstream.reporter.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Twelve runs of one step; from the seventh on the target's cache is halved and the load is three quarters: one
 * series, its values the runs' exact figures, one change point at the seventh run naming the variable.
 */
class TrendQueryTest {

    private static final long T0 = 1_764_000_000_000L;
    private static final long DAY = 86_400_000L;

    @TempDir
    static Path archive;

    static List<SyntheticRun> runs;

    @BeforeAll
    static void writeArchive() {
        runs = writeHistory(archive);
    }

    /** The twelve runs, archived into {@code archive}. */
    static List<SyntheticRun> writeHistory(Path archive) {
        List<SyntheticRun> runs = new ArrayList<>();
        List<SyntheticRun.Rec> records = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            boolean after = i >= 6;
            SyntheticRun run = new SyntheticRun(String.format("run-%02d", i), i, List.of("p1"), List.of(
                    new SyntheticRun.StepSpec("maria", "oltp_point_select", 4, 1, 1, 500, 1500)),
                    after ? 300 : 400, 1, T0 + i * DAY);
            if (after) {
                withVariable(run, "cache_size", "32768");
            }
            // measured at every step, not set: never part of the fingerprint
            withVariable(run, "tailstream.data_bytes", String.valueOf(1_000_000 + i));
            runs.add(run);
            records.addAll(run.allRecords(1, 1));
        }
        TestArchives.write(archive, records);
        return runs;
    }

    /** The run's steps as if the target's variable {@code name} had been {@code value}. */
    static void withVariable(SyntheticRun run, String name, String value) {
        List<ControlEvent> control = run.control;
        for (int i = 0; i < control.size(); i++) {
            if (control.get(i) instanceof StepStarted s) {
                TargetInfo t = s.target();
                Map<String, String> vars = new java.util.TreeMap<>(t.variables());
                vars.put(name, value);
                TargetInfo changed = new TargetInfo(t.name(), t.url(), t.product(), t.version(), vars,
                        t.monthlyCost(), t.currency(), t.nodes(), t.notes(), t.costItems());
                control.set(i, new StepStarted(s.runId(), s.atEpochMs(), s.producerId(), s.stepId(), changed,
                        s.workload(), s.threads(), s.round(), s.warmupMs(), s.measureMs(), s.ops(),
                        s.queriesPerTransaction(), s.options(), s.rtt(), s.startAtEpochMs(), s.participants()));
            }
        }
    }

    private static List<Series> trend(TrendFilter filter, Metric metric) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            return TrendQuery.of(db, filter, metric, new ChangePointDetector(ChangePointSettings.DEFAULTS));
        }
    }

    @Test
    void oneSeries_exactValues_oneChangeNamingTheVariable() throws SQLException {
        List<Series> series = trend(TrendFilter.ALL, Metric.QPS);
        assertThat(series).hasSize(1);
        Series s = series.get(0);
        assertThat(s.key()).isEqualTo(new SeriesKey("maria", "H2", "oltp_point_select", "{\"tables\":\"1\"}", 4));
        assertThat(s.points()).extracting(SeriesPoint::runId)
                .containsExactlyElementsOf(runs.stream().map(r -> r.runId).toList());
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            for (SeriesPoint p : s.points()) {
                StepFigure exact = StepFigureQuery.of(db, List.of(p.runId())).get(0);
                assertThat(p.value()).isEqualTo(exact.qps());
                assertThat(p.rounds()).isEqualTo(1);
            }
        }
        assertThat(s.changes()).hasSize(1);
        SeriesChange c = s.changes().get(0);
        assertThat(c.index()).isEqualTo(6);
        assertThat(c.lastRunBefore()).isEqualTo("run-05");
        assertThat(c.firstRunAfter()).isEqualTo("run-06");
        assertThat(c.runsBefore()).isEqualTo(6);
        assertThat(c.runsAfter()).isEqualTo(6);
        assertThat(c.worse()).isTrue();
        double before = s.points().subList(0, 6).stream().mapToDouble(SeriesPoint::value).average().orElseThrow();
        double after = s.points().subList(6, 12).stream().mapToDouble(SeriesPoint::value).average().orElseThrow();
        assertThat(c.meanBefore()).isCloseTo(before, within(1e-9));
        assertThat(c.meanAfter()).isCloseTo(after, within(1e-9));
        assertThat(c.change().estimatePct()).isCloseTo((after / before - 1) * 100, within(1e-9));
        assertThat(c.change().lowPct()).isLessThan(-25.0 + 2).isLessThan(c.change().estimatePct());
        assertThat(c.change().highPct()).isGreaterThan(-25.0 - 2).isGreaterThan(c.change().estimatePct());
        assertThat(c.differences()).containsExactly(
                new Fingerprint.Change("variable cache_size", List.of("65536"), List.of("32768")));
    }

    @Test
    void fingerprint_holdsWhatTheStepsRanOn() throws SQLException {
        SeriesPoint p = trend(TrendFilter.ALL, Metric.P99).get(0).points().get(0);
        assertThat(p.fingerprint().attributes()).containsEntry("version", "2.3.232").containsEntry("driver", "h2")
                .containsEntry("variable cache_size", "65536").containsEntry("client host", "test")
                .containsEntry("warmup ms", "500").containsEntry("measure ms", "1500")
                .doesNotContainValue("secret");
        assertThat(p.fingerprint().attributes().get("url")).doesNotContain("secret");
    }

    @Test
    void filters_narrowTheSeriesAndRuns() throws SQLException {
        assertThat(trend(new TrendFilter(null, null, 8, null), Metric.QPS)).isEmpty();
        assertThat(trend(new TrendFilter("other", null, null, null), Metric.QPS)).isEmpty();
        Series recent = trend(new TrendFilter("maria", "oltp_point_select", 4, Instant.ofEpochMilli(T0 + 7 * DAY)),
                Metric.QPS).get(0);
        assertThat(recent.points()).extracting(SeriesPoint::runId)
                .containsExactly("run-07", "run-08", "run-09", "run-10", "run-11");
        assertThat(recent.changes()).isEmpty();
    }

    @Test
    void page_chartsEachSeries_andListsTheChange() throws Exception {
        List<Series> series = trend(TrendFilter.ALL, Metric.QPS);
        String html = TrendPage.render(series, Metric.QPS, ChangePointSettings.DEFAULTS, T0);
        assertThat(html).contains("<h2 id=\"series-0-title\">maria (H2) · oltp_point_select · 4 threads</h2>")
                .contains("Workload options {&quot;tables&quot;:&quot;1&quot;}.")
                .contains("12 runs, 1 change point.")
                .contains("variable cache_size: 65536 → 32768")
                .contains("<td class=\"text\">run-05</td>").contains("<td class=\"text\">run-06</td>")
                .doesNotContain("secret").doesNotContain("src=\"http").doesNotContain("href=\"http");
        String json = html.substring(html.indexOf("id=\"trend-data\">") + "id=\"trend-data\">".length());
        com.fasterxml.jackson.databind.JsonNode data = io.tailstream.schemas.event.Json.MAPPER.readTree(
                json.substring(0, json.indexOf("</script>"))).get("series").get(0);
        Series s = series.get(0);
        for (int i = 0; i < 12; i++) {
            assertThat(data.get("v").get(i).asDouble()).isEqualTo(s.points().get(i).value());
            assertThat(data.get("mean").get(i).asDouble()).isCloseTo(i < 6 ? s.changes().get(0).meanBefore()
                    : s.changes().get(0).meanAfter(), within(1e-9));
        }
        assertThat(data.get("changes").get(0).asDouble()).isEqualTo((T0 + 6 * DAY) / 1000.0);
    }

    /**
     * Runs of two rounds at two thread counts from two producers (1% deadlocks, warm-up samples), half of them with
     * recorded measurement boundaries and half with spans from their samples: every metric's value of every run
     * equals the one {@code compare} computes for it, and so does the number of rounds pooled.
     */
    @Test
    void everyMetric_equalsTheFiguresOfCompare(@TempDir Path pooledArchive) throws SQLException {
        List<SyntheticRun.Rec> records = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            List<SyntheticRun.StepSpec> steps = new ArrayList<>();
            for (int round = 1; round <= 2; round++) {
                for (int threads : new int[] {2, 4}) {
                    steps.add(new SyntheticRun.StepSpec("maria", "oltp_read_write", threads, round, 18, 300, 1200));
                }
            }
            SyntheticRun run = new SyntheticRun("pooled-" + i, 100 + i, List.of("p1", "p2"), steps, 300 + 20 * i, 2,
                    T0 + i * DAY, i % 2 == 0);
            ids.add(run.runId);
            records.addAll(run.allRecords(2, 1));
        }
        TestArchives.write(pooledArchive, records);
        try (ArchiveDatabase db = ArchiveDatabase.open(pooledArchive)) {
            List<StepFigure> exact = StepFigureQuery.of(db, ids);
            assertThat(exact).hasSize(12).allMatch(StepFigure::completed).allMatch(f -> f.rounds() == 2);
            for (Metric metric : Metric.values()) {
                List<Series> series = TrendQuery.of(db, TrendFilter.ALL, metric,
                        new ChangePointDetector(ChangePointSettings.DEFAULTS));
                if (!metric.appliesTo("oltp_read_write")) {
                    assertThat(series).as(metric.id() + ": not this workload's").isEmpty();
                    continue;
                }
                assertThat(series).as(metric.id()).hasSize(2);
                for (Series s : series) {
                    assertThat(s.points()).hasSize(6);
                    for (SeriesPoint p : s.points()) {
                        StepFigure f = exact.stream().filter(e -> e.runId().equals(p.runId())
                                && e.threads() == s.key().threads()).findFirst().orElseThrow();
                        assertThat(p.value()).as(metric.id() + " " + p.runId()).isEqualTo(valueOf(metric, f));
                        assertThat(p.rounds()).isEqualTo(2);
                    }
                }
            }
        }
    }

    /** The runs' samples selected by literals (a few runs) or by a subquery (many) give the same values. */
    @Test
    void runsByLiteralsOrBySubquery_sameValues() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            // fills the table of completed steps the figures read
            TrendQuery.of(db, TrendFilter.ALL, Metric.QPS, new ChangePointDetector(ChangePointSettings.DEFAULTS));
            for (Metric metric : Metric.values()) {
                Map<String, Map<StepFigure.Key, TrendFigures.Value>> byLiterals = TrendFigures.of(db, metric, 12);
                assertThat(byLiterals).as(metric.id()).hasSize(metric.appliesTo("oltp_point_select") ? 12 : 0);
                assertThat(TrendFigures.of(db, metric, 11)).as(metric.id()).isEqualTo(byLiterals);
            }
        }
    }

    /** A metric's value from the figures of {@code compare}: the independent computation trend must agree with. */
    private static double valueOf(Metric metric, StepFigure f) {
        return switch (metric) {
            case QPS -> f.qps();
            case TPS -> f.tps();
            case P95 -> f.ok().p95Us() / 1000.0;
            case P99 -> f.ok().p99Us() / 1000.0;
            case P999 -> f.ok().p999Us() / 1000.0;
            case ERRORS -> f.errors() * 100.0 / f.samples();
            case TPMC -> throw new IllegalArgumentException("no TPC-C series here");
        };
    }

    /** The percentiles trend asks DuckDB for are nearest-rank, ceil(p x n), at every count up to 3,000. */
    @Test
    void duckDbPercentile_isNearestRank_atEveryCount() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive);
             java.sql.Statement st = db.connection().createStatement();
             java.sql.ResultSet rs = st.executeQuery("""
                     SELECT n, quantile_disc(v, 0.95), quantile_disc(v, 0.99), quantile_disc(v, 0.999)
                     FROM (SELECT n, unnest(range(1, n + 1)) AS v FROM range(1, 3001) t(n)) GROUP BY n""")) {
            int rows = 0;
            while (rs.next()) {
                long n = rs.getLong(1);
                assertThat(rs.getLong(2)).as("P95 of 1..%d", n).isEqualTo((95 * n + 99) / 100);
                assertThat(rs.getLong(3)).as("P99 of 1..%d", n).isEqualTo((99 * n + 99) / 100);
                assertThat(rs.getLong(4)).as("P99.9 of 1..%d", n).isEqualTo((999 * n + 999) / 1000);
                rows++;
            }
            assertThat(rows).isEqualTo(3000);
        }
    }

    /**
     * The HTML report of one run of a plan the archive holds eleven more runs of: its trend page is written beside
     * it, linked from it, and shows the series with its change point; a report of every run links none.
     */
    @Test
    void report_ofOneRun_linksTheTrendOfItsPlan(@TempDir Path out) throws Exception {
        Path report = out.resolve("nightly.html");
        var model = io.tailstream.reporter.report.ReportGenerator.generate(archive,
                io.tailstream.reporter.report.ReportOptions.runs(List.of("run-11")), report);
        assertThat(model.history()).isNotNull();
        assertThat(model.history().runs()).isEqualTo(12);
        assertThat(model.history().plans()).containsExactly("synthetic-plan");
        Path trend = out.resolve("nightly-trend.html");
        assertThat(io.tailstream.reporter.report.ReportGenerator.trendPage(report)).isEqualTo(trend);
        assertThat(java.nio.file.Files.readString(report)).contains("<p id=\"history\" class=\"note\" data-runs=\"12\">")
                .contains("<a href=\"nightly-trend.html\">Trend with change points</a>");
        assertThat(java.nio.file.Files.readString(trend))
                .contains("<h2 id=\"series-0-title\">maria (H2) · oltp_point_select · 4 threads</h2>")
                .contains("12 runs, 1 change point.").contains("variable cache_size: 65536 → 32768");

        Path all = out.resolve("all.html");
        var allModel = io.tailstream.reporter.report.ReportGenerator.generate(archive,
                io.tailstream.reporter.report.ReportOptions.allRuns(), all);
        assertThat(allModel.history()).as("every run of the plan is in the report").isNull();
        assertThat(java.nio.file.Files.readString(all)).doesNotContain("id=\"history\"");
        assertThat(out.resolve("all-trend.html")).doesNotExist();
    }

    @Test
    void latencyMetric_isMilliseconds_andItsDirectionDecidesWorse() throws SQLException {
        Series p99 = trend(TrendFilter.ALL, Metric.P99).get(0);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            StepFigure exact = StepFigureQuery.of(db, List.of("run-00")).get(0);
            assertThat(p99.points().get(0).value()).isEqualTo(exact.p99Us() / 1000.0);
        }
        for (SeriesChange c : p99.changes()) {
            assertThat(c.worse()).isEqualTo(c.meanAfter() > c.meanBefore());
        }
    }
}
