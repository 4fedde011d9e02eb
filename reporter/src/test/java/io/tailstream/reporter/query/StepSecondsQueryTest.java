package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-unit series from the aggregator's windows where they count every measured sample, and from the raw samples
 * where they do not: each against a plain count of the samples, by clock-aligned windows and by units from the span's
 * start respectively.
 */
class StepSecondsQueryTest {

    @TempDir
    Path dir;

    private static final SyntheticRun RUN = new SyntheticRun("w", 5, List.of("p1", "p2"),
            List.of(new SyntheticRun.StepSpec("a", "oltp_read_write", 4, 1, 20, 700, 12_000)), 300, 2,
            QueryFixtures.T0);

    /** Version-2 all-ops windows of 1 s computed from the run's samples as the aggregator computes them. */
    private static List<WindowStats> windows(SyntheticRun run) {
        Map<Long, List<SyntheticRun.Row>> byWindow = new TreeMap<>();
        for (SyntheticRun.Row r : run.rows) {
            long endMs = Math.floorDiv(r.endUs(), 1000);
            byWindow.computeIfAbsent(endMs - Math.floorMod(endMs, 1000), k -> new ArrayList<>()).add(r);
        }
        List<WindowStats> out = new ArrayList<>();
        byWindow.forEach((start, rows) -> {
            Part all = Part.of(rows);
            List<SyntheticRun.Row> measured = rows.stream().filter(r -> !r.warmup()).toList();
            long warmup = rows.size() - measured.size();
            WindowPart part = warmup == 0 || measured.isEmpty() ? null : Part.of(measured).toPart();
            out.add(WindowStats.of(run.runId, 1, WindowStats.ALL_OPS, start, start + 1000, rows.size(), all.errors,
                    all.errorsByClass, all.queries, all.okQueries, all.ok, all.failed, warmup, 0, part));
        });
        return out;
    }

    private record Part(long errors, Map<String, Long> errorsByClass, long queries, long okQueries, Histogram ok,
                        Histogram failed, long count) {
        static Part of(List<SyntheticRun.Row> rows) {
            Histogram ok = LatencyHistograms.create();
            Histogram failed = LatencyHistograms.create();
            Map<String, Long> classes = new TreeMap<>();
            long queries = 0;
            long okQueries = 0;
            for (SyntheticRun.Row r : rows) {
                queries += r.queries();
                if (r.status().equals("ok")) {
                    ok.recordValue(r.latencyUs());
                    okQueries += r.queries();
                } else {
                    failed.recordValue(r.latencyUs());
                    okQueries += Math.max(r.queries() - 1, 0);
                    classes.merge(r.status(), 1L, Long::sum);
                }
            }
            return new Part(failed.getTotalCount(), classes, queries, okQueries, ok,
                    failed.getTotalCount() == 0 ? null : failed, rows.size());
        }

        WindowPart toPart() {
            return new WindowPart(count, errors, errorsByClass, queries, okQueries, LatencyHistograms.toBase64(ok),
                    failed == null ? null : LatencyHistograms.toBase64(failed));
        }
    }

    private Path archive(List<WindowStats> windows) {
        Path archive = dir.resolve("archive-" + windows.size());
        List<SyntheticRun.Rec> records = new ArrayList<>(RUN.sampleRecords);
        windows.forEach(w -> records.add(new SyntheticRun.Rec(Topics.WINDOWS, 0,
                w.scopeKey().getBytes(StandardCharsets.UTF_8), Json.write(w))));
        records.addAll(RUN.controlRecords());
        TestArchives.write(archive, records, 5_000);
        return archive;
    }

    private record Series(StepSeconds seconds, StepFigure.StepRef step) {}

    private static Series seconds(Path archive) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, RunComparison.DATASETS)) {
            StepFigure f = StepFigureQuery.of(db, List.of(RUN.runId)).get(0);
            StepFigure.StepRef step = f.steps().get(0);
            return new Series(StepSecondsQuery.of(db, Map.of(step, f.samples())).get(RUN.runId).get(1), step);
        }
    }

    /** Statements and successful latencies of the measured samples by unit, units of 1 s from {@code originUs}. */
    private static void assertCounts(StepSeconds s, long originUs, int units) {
        double[] statements = new double[units];
        List<Long> ok = new ArrayList<>();
        for (SyntheticRun.Row r : RUN.rows) {
            long unit = Math.floorDiv(r.endUs() - originUs, 1_000_000L);
            if (!r.warmup() && unit >= 0 && unit < units) {
                boolean success = r.status().equals("ok");
                statements[(int) unit] += success ? r.queries() : Math.max(r.queries() - 1, 0);
                if (success) {
                    ok.add(r.latencyUs());
                }
            }
        }
        assertThat(s.units()).isEqualTo(units).isGreaterThanOrEqualTo(8);
        for (int u = 0; u < units; u++) {
            assertThat(s.qps(u)).as("unit %d", u).isEqualTo(statements[u]);
        }
        int[] all = new int[units];
        Arrays.setAll(all, i -> i);
        long exact = QueryFixtures.nearestRank(ok.stream().mapToLong(Long::longValue).sorted().toArray(), 0.99);
        assertThat(s.percentileUs(all, 0.99) / exact).isCloseTo(1.0, within(0.011));
    }

    @Test
    void windowsCountingEveryMeasuredSample_giveTheUnits_alignedToTheClock() throws SQLException {
        Series s = seconds(archive(windows(RUN)));
        // windows wholly inside the measured span; the span starts between two windows
        long firstWindow = -Math.floorDiv(-s.step().fromUs(), 1_000_000L);
        assertThat(firstWindow * 1_000_000L).isNotEqualTo(s.step().fromUs());
        assertCounts(s.seconds(), firstWindow * 1_000_000L,
                (int) (Math.floorDiv(s.step().toUs(), 1_000_000L) - firstWindow));
    }

    /** Roll-ups of 10 s (as {@code aggregate} writes them next to the base windows) are not base windows. */
    @Test
    void rollupsBesideTheWindows_areLeftOut() throws SQLException {
        List<WindowStats> windows = new ArrayList<>(windows(RUN));
        Map<Long, Long> rollups = new TreeMap<>();
        windows.forEach(w -> rollups.merge(w.windowStartEpochMs() - Math.floorMod(w.windowStartEpochMs(), 10_000),
                w.count(), Long::sum));
        rollups.forEach((start, count) -> windows.add(WindowStats.of(RUN.runId, 1, WindowStats.ALL_OPS, start,
                start + 10_000, count, 0, Map.of(), 0, 0, LatencyHistograms.create(), null, 0, 0, null)));
        Series s = seconds(archive(windows));
        long firstWindow = -Math.floorDiv(-s.step().fromUs(), 1_000_000L);
        assertCounts(s.seconds(), firstWindow * 1_000_000L,
                (int) (Math.floorDiv(s.step().toUs(), 1_000_000L) - firstWindow));
    }

    @Test
    void windowsMissingSamples_theRawSamplesGiveTheUnits_fromTheSpansStart() throws SQLException {
        List<WindowStats> windows = new ArrayList<>(windows(RUN));
        windows.remove(windows.size() / 2);
        Series s = seconds(archive(windows));
        assertCounts(s.seconds(), s.step().fromUs(), (int) ((s.step().toUs() - s.step().fromUs()) / 1_000_000L));
    }
}
