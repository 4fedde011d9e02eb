package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.ProofRun;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time-series charts: each window's QPS is its statements over the window's time inside the step, so the
 * partial windows at a step's edges are not drawn as dips; the measurement's start and end are marked; roll-ups
 * are not mixed into the one-second windows. Every point is checked against the definition computed from the raw
 * samples.
 */
class TimeSeriesReportTest {

    @TempDir
    Path dir;

    /** {@link ExactFiguresReportTest#STEADY} starting 150 ms into a second, so it ends 450 ms into its last one. */
    static final ProofRun.Spec EARLY_END = new ProofRun.Spec("h2-file", "oltp_point_select", 8, 1,
            List.of("point_select"), 1, 150, 1300, 3000, 3000, 120, 0, 0, ExactFiguresReportTest.STEADY.failures(), -1);

    static final List<ProofRun.Spec> SPECS = List.of(EARLY_END,
            ExactFiguresReportTest.HEAVY.withRound(2), ExactFiguresReportTest.YCSB.withFailAfter(700));

    /**
     * The expected points of a step, {window start ms → QPS}: statements of the samples completing in each second
     * (all, or those of successful samples) over the window's time inside [step start, max(measurement end, last
     * completion)], or over the whole second when {@code normalized} is false.
     */
    static Map<Long, Double> expectedQps(ProofRun run, int stepId, boolean normalized,
                                         Predicate<ProofRun.Row> counted) {
        List<ProofRun.Row> rows = run.rows.stream().filter(r -> r.stepId() == stepId).toList();
        ProofRun.Phases ph = run.phases.get(stepId - 1);
        long lastEnd = rows.stream().mapToLong(ProofRun.Row::endUs).max().orElseThrow();
        long from = ph.startUs();
        long to = Math.max(ph.measureEndUs(), lastEnd);
        Map<Long, long[]> queries = new TreeMap<>();
        for (ProofRun.Row r : rows) {
            long w = r.endUs() / 1_000_000 * 1000;
            // a sample not counted whole still contributes the statements that succeeded before its failing one
            queries.computeIfAbsent(w, k -> new long[1])[0] += counted.test(r) ? r.queries()
                    : Math.max(0, r.queries() - 1);
        }
        Map<Long, Double> out = new TreeMap<>();
        queries.forEach((w, q) -> {
            long covered = normalized ? Math.min((w + 1000) * 1000, to) - Math.max(w * 1000, from) : 1_000_000;
            out.put(w, q[0] / (covered / 1e6));
        });
        return out;
    }

    static Map<Long, Double> actualQps(StepSeries s) {
        assertThat(s.epochSeconds()).as("not down-sampled").hasSize(s.windows());
        Map<Long, Double> out = new TreeMap<>();
        for (int i = 0; i < s.epochSeconds().length; i++) {
            out.put(s.epochSeconds()[i] * 1000, s.qps()[i]);
        }
        return out;
    }

    static void assertPoints(Map<Long, Double> actual, Map<Long, Double> expected) {
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        expected.forEach((w, q) -> assertThat(actual.get(w)).as("window " + w).isCloseTo(q, within(q * 1e-12)));
    }

    @Test
    void edgeWindows_normalizedByTheirTimeInsideTheStep_measurementMarked() throws Exception {
        ProofRun run = new ProofRun("ts", 5, ExactFiguresReportTest.T0, SPECS, true);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(model.charts()).hasSize(3);
        for (int step = 1; step <= 3; step++) {
            StepSeries s = model.charts().get(step - 1);
            ProofRun.Phases ph = run.phases.get(step - 1);
            assertThat(s.normalized()).isTrue();
            // the archive's windows (WindowStats of this schema version) count all statements
            assertThat(s.allStatements()).isTrue();
            assertPoints(actualQps(s), expectedQps(run, step, true, r -> true));
            assertThat(s.startMs()).isEqualTo(ph.startUs() / 1000);
            assertThat(s.measureStartMs()).isEqualTo(ph.measureStartUs() / 1000);
            assertThat(s.measureEndMs()).isEqualTo(ph.measureEndUs() / 1000);
        }
        assertThat(model.charts().get(2).outcome()).startsWith("failed: ");
        assertThat(model.charts().get(0).outcome()).isNull();

        // the steady step: the partial first and last windows read like the others, where per whole second the
        // last one would have been a dip
        StepSeries steady = model.charts().get(0);
        ProofRun.Phases ph = run.phases.get(0);
        double lastFraction = (ph.measureEndUs() % 1_000_000) / 1e6;
        assertThat(lastFraction).as("the fixture's step ends early in its last second").isLessThan(0.6);
        double[] q = steady.qps();
        double median = java.util.Arrays.stream(q).sorted().toArray()[q.length / 2];
        for (double v : q) {
            assertThat(v).isBetween(0.6 * median, 1.4 * median);
        }
        Map<Long, Double> perSecond = expectedQps(run, 1, false, r -> true);
        double lastPerSecond = perSecond.values().stream().reduce((a, b) -> b).orElseThrow();
        assertThat(lastPerSecond).isLessThan(0.7 * median);

        String json = ReportGenerator.chartJson(model);
        JsonNode c = Json.MAPPER.readTree(json).get("series").get(0);
        assertThat(c.get("measureStart").asDouble()).isEqualTo(ph.measureStartUs() / 1000 / 1000.0);
        assertThat(c.get("measureEnd").asDouble()).isEqualTo(ph.measureEndUs() / 1000 / 1000.0);
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("data-outcome=\"failed: connection_lost (not ignored)")
                .contains("QPS counts all statements");
    }

    @Test
    void windowsWithOkQueries_chartCountsSuccessfulStatementsOnly() throws Exception {
        ProofRun run = new ProofRun("okq", 6, ExactFiguresReportTest.T0, List.of(ExactFiguresReportTest.FLOOD), true);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        // windows as the aggregator writes them with successful statements counted apart
        try (var db = io.tailstream.reporter.query.ArchiveDatabase.open(archive);
             var st = db.connection().createStatement()) {
            Path w = ArchiveLayout.runDir(archive, ArchiveLayout.WINDOWS, "okq");
            Path tmp = dir.resolve("windows.parquet");
            st.execute("COPY (SELECT w.* EXCLUDE (run_id, ok_queries), coalesce((SELECT CAST(sum(CASE WHEN"
                    + " s.status = 'ok' THEN queries ELSE greatest(queries - 1, 0) END) AS BIGINT) FROM samples s"
                    + " WHERE s.step_id = w.step_id AND (s.start_us + s.latency_us) // 1000000"
                    + " = w.window_start_ms // 1000), 0) AS ok_queries FROM windows w) TO '" + tmp
                    + "' (FORMAT parquet)");
            try (var files = java.nio.file.Files.list(w)) {
                for (Path f : files.toList()) {
                    java.nio.file.Files.delete(f);
                }
            }
            java.nio.file.Files.move(tmp, w.resolve("windows.parquet"));
        }
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        StepSeries s = model.charts().get(0);
        assertThat(s.allStatements()).isFalse();
        Map<Long, Double> ok = expectedQps(run, 1, true, ProofRun.Row::ok);
        assertPoints(actualQps(s), ok);
        // 95% of the flood's transactions fail: counting them would read about 20 times higher
        Map<Long, Double> all = expectedQps(run, 1, true, r -> true);
        ok.forEach((w, v) -> assertThat(all.get(w)).isGreaterThan(5 * v));
        assertThat(ReportGenerator.render(model, Locale.ENGLISH)).doesNotContain("QPS counts all statements");
    }

    @Test
    void olderArchive_withoutStepBoundaries_perWholeWindow_andSaysSo() throws Exception {
        ProofRun run = new ProofRun("old", 7, ExactFiguresReportTest.T0, List.of(ExactFiguresReportTest.STEADY), false);
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run.records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        StepSeries s = model.charts().get(0);
        assertThat(s.normalized()).isFalse();
        assertThat(s.startMs()).isNull();
        assertPoints(actualQps(s), expectedQps(run, 1, false, r -> true));
        List<ProofRun.Row> measured = run.rows.stream().filter(r -> !r.warmup()).toList();
        assertThat(s.measureStartMs()).isEqualTo(measured.stream().mapToLong(ProofRun.Row::startUs).min()
                .orElseThrow() / 1000);
        assertThat(s.measureEndMs()).isEqualTo(measured.stream().mapToLong(ProofRun.Row::endUs).max()
                .orElseThrow() / 1000);
        assertThat(ReportGenerator.render(model, Locale.ENGLISH)).contains("no recorded step boundaries");
    }

    @Test
    void rollUps_neverMixedIntoTheOneSecondWindows() throws Exception {
        ProofRun run = new ProofRun("roll", 8, ExactFiguresReportTest.T0, List.of(ExactFiguresReportTest.STEADY), true);
        List<SyntheticRun.Rec> records = new ArrayList<>(run.records);
        // a 10 s roll-up of the step, as `tailstream aggregate` writes by default, starting with a base window
        long from = run.windows.get(0).windowStartEpochMs() / 10_000 * 10_000;
        Histogram h = LatencyHistograms.create();
        long queries = 0;
        for (ProofRun.Row r : run.rows) {
            LatencyHistograms.record(h, r.latencyUs());
            queries += r.queries();
        }
        WindowStats rollUp = WindowStats.of("roll", 1, WindowStats.ALL_OPS, from, from + 10_000, h, 0, Map.of(),
                queries, 0, 0);
        records.add(new SyntheticRun.Rec(Topics.WINDOWS, 0, rollUp.scopeKey().getBytes(StandardCharsets.UTF_8),
                Json.write(rollUp)));
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertPoints(actualQps(model.charts().get(0)), expectedQps(run, 1, true, r -> true));
    }

    @Test
    void archiveWithoutWindows_pointsFromRawSamples_sameDefinition() throws Exception {
        ProofRun run = new ProofRun("raw", 9, ExactFiguresReportTest.T0, List.of(ExactFiguresReportTest.FLOOD), true);
        List<SyntheticRun.Rec> records = run.records.stream().filter(r -> !r.topic().equals(Topics.WINDOWS))
                .toList();
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        StepSeries s = model.charts().get(0);
        assertThat(s.allStatements()).isFalse();
        assertPoints(actualQps(s), expectedQps(run, 1, true, ProofRun.Row::ok));
    }
}
