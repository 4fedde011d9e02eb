package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The confidence intervals of compare: the per-second series against a plain count, and both kinds of interval. */
class StepIntervalsTest {

    @TempDir
    static Path archive;

    static SyntheticRun base;
    static SyntheticRun same;
    static SyntheticRun slow;
    static SyntheticRun roundsBase;
    static SyntheticRun roundsSlow;

    private static SyntheticRun run(String id, long seed, int rate, int rounds, long startMs) {
        List<SyntheticRun.StepSpec> steps = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            steps.add(new SyntheticRun.StepSpec("a", "oltp_point_select", 4, r, 1, 500, 20_000));
        }
        return new SyntheticRun(id, seed, List.of("p1", "p2"), steps, rate, 2, startMs);
    }

    @BeforeAll
    static void writeArchive() {
        base = run("base", 1, 200, 1, QueryFixtures.T0);
        same = run("same", 1, 200, 1, QueryFixtures.T0 + 86_400_000L);
        slow = run("slow", 2, 140, 1, QueryFixtures.T0 + 2 * 86_400_000L);
        roundsBase = run("rounds-base", 3, 200, 3, QueryFixtures.T0 + 3 * 86_400_000L);
        roundsSlow = run("rounds-slow", 4, 150, 3, QueryFixtures.T0 + 4 * 86_400_000L);
        List<SyntheticRun.Rec> all = new ArrayList<>();
        for (SyntheticRun r : List.of(base, same, slow, roundsBase, roundsSlow)) {
            all.addAll(r.allRecords(2, 2));
        }
        TestArchives.write(archive, all, 5_000);
    }

    /** Statements per second and the P99 of the seconds, counted here from the run's rows. */
    @Test
    void seconds_matchAPlainCount() throws SQLException {
        List<SyntheticRun.Row> measured = base.rows.stream().filter(r -> !r.warmup()).toList();
        long from = measured.stream().mapToLong(SyntheticRun.Row::startUs).min().orElseThrow();
        long to = measured.stream().mapToLong(SyntheticRun.Row::endUs).max().orElseThrow();
        int units = (int) ((to - from) / 1_000_000);
        double[] statements = new double[units];
        List<Long> okLatencies = new ArrayList<>();
        for (SyntheticRun.Row r : measured) {
            int unit = (int) ((r.endUs() - from) / 1_000_000);
            if (unit < units) {
                boolean ok = r.status().equals("ok");
                statements[unit] += ok ? r.queries() : Math.max(r.queries() - 1, 0);
                if (ok) {
                    okLatencies.add(r.latencyUs());
                }
            }
        }
        StepSeconds s;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            StepFigure f = StepFigureQuery.of(db, List.of("base")).get(0);
            s = StepSecondsQuery.of(db, java.util.Map.of(f.steps().get(0), f.samples())).get("base").get(1);
        }
        assertThat(s.units()).isEqualTo(units).isGreaterThanOrEqualTo(19);
        assertThat(s.unitSeconds()).isEqualTo(1.0);
        for (int u = 0; u < units; u++) {
            assertThat(s.qps(u)).as("unit %d", u).isEqualTo(statements[u]);
        }
        long[] sorted = okLatencies.stream().mapToLong(Long::longValue).sorted().toArray();
        long exact = QueryFixtures.nearestRank(sorted, 0.99);
        int[] all = new int[units];
        Arrays.setAll(all, i -> i);
        assertThat(s.percentileUs(all, 0.99) / exact).isCloseTo(1.0, within(0.01));
        // a resample with a unit twice counts its samples twice
        int[] twice = {0, 0};
        int[] once = {0};
        assertThat(s.qps(twice)).isEqualTo(s.qps(once));
    }

    private static RunComparison.Row only(String baseline, String candidate) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            RunComparison.Result r = RunComparison.compare(db, baseline, candidate, 5);
            assertThat(r.rows()).hasSize(1);
            return r.rows().get(0);
        }
    }

    @Test
    void oneRound_sameSamples_intervalHoldsZero_slowerRun_wholeIntervalBelowThreshold() throws SQLException {
        RunComparison.Row aa = only("base", "same");
        assertThat(aa.intervals().method()).isEqualTo(StepIntervals.Method.SECONDS);
        assertThat(aa.qpsDeltaPct()).isEqualTo(0.0);
        assertThat(aa.intervals().qps().coversZero()).isTrue();
        assertThat(aa.intervals().p99().coversZero()).isTrue();
        assertThat(aa.verdict()).isEqualTo(RunComparison.Verdict.SAME);

        RunComparison.Row worse = only("base", "slow");
        PercentInterval qps = worse.intervals().qps();
        assertThat(qps.estimatePct()).isEqualTo(worse.qpsDeltaPct()).isCloseTo(-30, within(2.0));
        assertThat(qps.lowPct()).isLessThan(qps.estimatePct());
        assertThat(qps.highPct()).isGreaterThan(qps.estimatePct()).isLessThan(-5.0);
        assertThat(worse.verdict()).isEqualTo(RunComparison.Verdict.WORSE);
    }

    @Test
    void rounds_fiellerOverTheRoundsFigures() throws SQLException {
        RunComparison.Row row = only("rounds-base", "rounds-slow");
        assertThat(row.intervals().method()).isEqualTo(StepIntervals.Method.ROUNDS);
        double[] b = row.baseline().perStep().stream().mapToDouble(StepFigure::qps).toArray();
        double[] c = row.candidate().perStep().stream().mapToDouble(StepFigure::qps).toArray();
        assertThat(b).hasSize(3);
        PercentInterval expected = Fieller.ratioOfMeans(mean(c), variance(c), 3, mean(b), variance(b), 3, 0.95);
        assertThat(row.intervals().qps().lowPct()).isEqualTo(expected.lowPct());
        assertThat(row.intervals().qps().highPct()).isEqualTo(expected.highPct());
        assertThat(row.intervals().qps().estimatePct()).isEqualTo(row.qpsDeltaPct());
        assertThat(row.verdict()).isEqualTo(RunComparison.Verdict.WORSE);
        // the noise: the larger coefficient of variation of the two runs' round QPS
        double noise = Math.max(Math.sqrt(variance(b)) / mean(b), Math.sqrt(variance(c)) / mean(c)) * 100;
        assertThat(row.intervals().qpsNoisePct()).isCloseTo(noise, within(1e-9));
    }

    /** A change no larger than the measured noise is neither worse nor better, whatever its interval. */
    @Test
    void verdict_neverCallsAChangeWithinTheNoise() {
        PercentInterval drop = new PercentInterval(-8, -9.0, -7.0, 0.95);
        PercentInterval flat = new PercentInterval(0, -1.0, 1.0, 0.95);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(drop, flat, StepIntervals.Method.ROUNDS, 5.0,
                null, null, null), 5)).isEqualTo(RunComparison.Verdict.WORSE);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(drop, flat, StepIntervals.Method.ROUNDS, 8.5,
                null, null, null), 5)).isEqualTo(RunComparison.Verdict.SAME);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(drop, flat, StepIntervals.Method.ROUNDS, null,
                null, null, null), 7.5)).isEqualTo(RunComparison.Verdict.SAME);
        PercentInterval noBounds = new PercentInterval(-8, null, null, 0.95);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(noBounds, flat, StepIntervals.Method.SECONDS,
                null, null, null, null), 5)).isEqualTo(RunComparison.Verdict.WORSE);
        PercentInterval rise = new PercentInterval(12, 10.0, 14.0, 0.95);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(flat, rise, StepIntervals.Method.SECONDS, null,
                null, null, null), 5)).isEqualTo(RunComparison.Verdict.WORSE);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(rise, flat, StepIntervals.Method.SECONDS, null,
                null, null, null), 5)).isEqualTo(RunComparison.Verdict.BETTER);
        // TPC-C: the throughput judged is tpmC, whatever QPS says, within tpmC's own noise
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(flat, flat, StepIntervals.Method.SECONDS, null,
                null, drop, null), 5)).isEqualTo(RunComparison.Verdict.WORSE);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(drop, flat, StepIntervals.Method.SECONDS, null,
                null, flat, null), 5)).isEqualTo(RunComparison.Verdict.SAME);
        assertThat(RunComparison.verdict(new StepIntervals.Intervals(flat, flat, StepIntervals.Method.ROUNDS, null,
                null, drop, 8.5), 5)).isEqualTo(RunComparison.Verdict.SAME);
    }

    private static double mean(double[] x) {
        return Arrays.stream(x).average().orElseThrow();
    }

    private static double variance(double[] x) {
        double m = mean(x);
        return Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1);
    }
}
