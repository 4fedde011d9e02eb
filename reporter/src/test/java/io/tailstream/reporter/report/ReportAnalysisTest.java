package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.StepData;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The judgement rules on hand-made rows: ties, missing data, flags. */
class ReportAnalysisTest {

    static SummaryRow row(String target, int threads, List<Double> roundQps, double p99, long errors) {
        double qps = roundQps.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return new SummaryRow(target, "w", threads, roundQps.size(), 1000, 10, qps, qps / 10, 1, 2, p99, 9, errors,
                null, null, roundQps, roundQps.stream().map(q -> p99).toList(), null);
    }

    static TargetEnv env(String name, Double cost, String currency, String product, Integer nodes) {
        // a database of its own per target: the same URL twice would be an A/A pair
        return new TargetEnv(name, product, "1", "jdbc:x/" + name, nodes, cost, currency, null, null, List.of());
    }

    static WorkloadSummary workload(List<SummaryRow> rows, Map<String, TargetEnv> targets, Integer at) {
        List<Integer> levels = ReportAnalysis.threadLevels(rows);
        Integer compare = ReportAnalysis.compareThreads(rows, at);
        return new WorkloadSummary("w", rows, false, levels, ReportAnalysis.sweep(rows, levels),
                ReportAnalysis.costs(rows, targets, compare), compare);
    }

    static Verdict verdict(List<Verdict> vs, String metric) {
        return vs.stream().filter(v -> v.metric().equals(metric)).findFirst().orElseThrow();
    }

    /** Student's t quantile for 2 degrees of freedom, in closed form: {@code (2p - 1) / sqrt(2 p (1 - p))}. */
    private static final double T_975_DF2 = 0.95 / Math.sqrt(2 * 0.975 * 0.025);

    @Test
    void throughput_intervalHoldingZeroIsTie_wholeIntervalBeyondIsWin() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 100.0, "USD", "X", 1)));
        // a: 950, 1000, 1050 (variance of the mean 2500 / 3); b: 960 flat. b's mean has no variance, so Fieller's
        // interval of a / b is (1000 +- t sqrt(2500 / 3)) / 960 with Welch's 2 degrees of freedom: it holds 1 -> tie
        WorkloadSummary tie = workload(List.of(row("a", 8, List.of(950.0, 1000.0, 1050.0), 5, 0),
                row("b", 8, List.of(960.0, 960.0, 960.0), 4, 0)), t, null);
        Verdict v = verdict(Verdicts.of(tie, t), "throughput");
        double half = T_975_DF2 * Math.sqrt(2500.0 / 3);
        assertThat(v.winner()).isEqualTo("a");
        assertThat(v.tie()).isTrue();
        assertThat(v.tiedWith()).containsExactly("b");
        assertThat(v.marginPct()).isCloseTo((1000 - 960) / 960.0 * 100, within(1e-9));
        assertThat(v.interval().estimatePct()).isCloseTo(v.marginPct(), within(1e-9));
        assertThat(v.interval().lowPct()).isCloseTo(((1000 - half) / 960 - 1) * 100, within(1e-9));
        assertThat(v.interval().highPct()).isCloseTo(((1000 + half) / 960 - 1) * 100, within(1e-9));
        assertThat(v.noisePct()).as("a's coefficient of variation").isCloseTo(5.0, within(1e-9));
        assertThat(v.tieReason().key()).isEqualTo("verdict.tie.undetectable");
        assertThat(v.tieReason().args()).containsExactly(String.format(java.util.Locale.ROOT, "%.1f%%",
                half / 960 * 100));
        // b at 860: (1000 +- 124.2) / 860 lies wholly above 1, and 16.3% is beyond the 5% noise -> a wins
        WorkloadSummary win = workload(List.of(row("a", 8, List.of(950.0, 1000.0, 1050.0), 5, 0),
                row("b", 8, List.of(860.0, 860.0, 860.0), 4, 0)), t, null);
        List<Verdict> vs = Verdicts.of(win, t);
        Verdict w = verdict(vs, "throughput");
        assertThat(w.status()).isEqualTo("win");
        assertThat(w.interval().lowPct()).isCloseTo(((1000 - half) / 860 - 1) * 100, within(1e-9)).isPositive();
        assertThat(w.tieReason()).isNull();
        assertThat(vs).allSatisfy(x -> assertThat(x.indicative()).as(x.metric()).isFalse()); // 3 rounds each
        // P99: lower wins; cost: 100 / 1000 * 1000 = 100 per 1,000 QPS vs 116.3
        assertThat(verdict(vs, "p99").winner()).isEqualTo("b");
        assertThat(verdict(vs, "p99").threads()).isEqualTo(8);
        assertThat(verdict(vs, "cost").winner()).isEqualTo("a");
        assertThat(verdict(vs, "cost").value()).isCloseTo(100.0, within(1e-9));
    }

    /**
     * The same database twice (an A/A pair: same product, version and URL) measures the noise: a difference no
     * larger than theirs is no win, a larger one is.
     */
    @Test
    void aaPair_itsDifferenceIsTheNoise() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", null, null, "X", 1),
                "a-again", new TargetEnv("a-again", "X", "1", "jdbc:x/a", 1, null, null, null, null, List.of()),
                "b", env("b", null, null, "X", 1)));
        assertThat(Verdicts.aaPairs(t.keySet(), t)).containsExactly(List.of("a", "a-again"));
        Verdict v = verdict(Verdicts.of(workload(List.of(row("a", 8, List.of(1000.0, 1002.0), 5, 0),
                row("a-again", 8, List.of(950.0, 952.0), 5, 0), row("b", 8, List.of(900.0, 902.0), 5, 0)), t, null),
                t), "throughput");
        double aa = (1001.0 / 951.0 - 1) * 100;
        assertThat(v.noisePct()).isCloseTo(aa, within(1e-9));
        assertThat(v.status()).isEqualTo("tie");
        assertThat(v.tiedWith()).as("its own twin, not b (%.1f%% apart)", (1001.0 / 901 - 1) * 100)
                .containsExactly("a-again");
        assertThat(v.tieReason().key()).isEqualTo("verdict.tie.noise");
    }

    @Test
    void singleRound_differenceIsIndicative_notAWin_sameComputation() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 100.0, "USD", "X", 1)));
        // a in 3 rounds, b in one: b's spread is unknown, so a's lead is indicative on every metric
        List<Verdict> one = Verdicts.of(workload(List.of(row("a", 8, List.of(990.0, 1000.0, 1010.0), 5, 0),
                row("b", 8, List.of(880.0), 4, 0)), t, null), t);
        Verdict tput = verdict(one, "throughput");
        assertThat(tput.winner()).isEqualTo("a");
        assertThat(tput.value()).isCloseTo(1000.0, within(1e-9));
        assertThat(tput.runnerUpValue()).isEqualTo(880.0);
        assertThat(tput.tie()).isFalse();
        assertThat(tput.indicative()).isTrue();
        assertThat(tput.interval()).as("unknown with one round").isNull();
        assertThat(verdict(one, "p99").winner()).isEqualTo("b");
        assertThat(verdict(one, "p99").indicative()).isTrue();
        assertThat(verdict(one, "cost").indicative()).isTrue();
        // a difference inside a's own spread is indicative too: b's spread is unknown, so neither a tie nor a win
        Verdict inside = verdict(Verdicts.of(workload(List.of(
                row("a", 8, List.of(990.0, 1000.0, 1010.0), 5, 0), row("b", 8, List.of(995.0), 4, 0)), t, null), t),
                "throughput");
        assertThat(inside.status()).isEqualTo("indicative");
        assertThat(inside.interval()).isNull();
        assertThat(inside.tiedWith()).isEmpty();
        // two rounds each: a win
        Verdict two = verdict(Verdicts.of(workload(List.of(row("a", 8, List.of(1000.0, 1001.0), 5, 0),
                row("b", 8, List.of(880.0, 881.0), 4, 0)), t, null), t), "throughput");
        assertThat(two.status()).isEqualTo("win");
        assertThat(two.interval().lowPct()).isPositive();
    }

    @Test
    void noVerdict_singleCandidate_noCommonThreads_mixedCurrencies() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 700.0, "CNY", "X", 1)));
        List<Verdict> single = Verdicts.of(workload(List.of(row("a", 8, List.of(10.0), 1, 0)), t, null),
                t);
        assertThat(single).allSatisfy(v -> assertThat(v.reason().key()).isEqualTo("verdict.reason.single"));
        List<Verdict> disjoint = Verdicts.of(workload(List.of(row("a", 8, List.of(10.0), 1, 0),
                row("b", 16, List.of(12.0), 1, 0)), t, null), t);
        assertThat(verdict(disjoint, "p99").reason().key()).isEqualTo("verdict.reason.noCommonThreads");
        assertThat(verdict(disjoint, "cost").reason().key()).isEqualTo("verdict.reason.currencies");
        assertThat(verdict(disjoint, "cost").reason().args()).containsExactly("CNY, USD");
        assertThat(verdict(disjoint, "throughput").winner()).isEqualTo("b");
    }

    @Test
    void deltas_relativeToBaselineAtSameThreads_missingBaselineLevelHasNone() {
        List<SummaryRow> rows = ReportAnalysis.withDeltas(List.of(row("base", 8, List.of(100.0), 10, 0),
                row("x", 8, List.of(150.0), 5, 0), row("x", 16, List.of(160.0), 6, 0)), "base");
        assertThat(rows.get(1).delta().qpsPct()).isCloseTo(50.0, within(1e-9));
        assertThat(rows.get(1).delta().p99Pct()).isCloseTo(-50.0, within(1e-9));
        assertThat(rows.get(0).delta().qpsPct()).isEqualTo(0.0);
        assertThat(rows.get(2).delta()).isNull();
    }

    @Test
    void sweepPeak_andScaleOut() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("p1", env("p1", null, null, "P", 1), "p2",
                env("p2", null, null, "P", 2), "m", env("m", null, null, "M", 1)));
        List<SummaryRow> rows = List.of(row("p1", 8, List.of(100.0), 1, 0), row("p1", 16, List.of(120.0), 1, 0),
                row("p1", 32, List.of(110.0), 1, 0), row("p2", 8, List.of(150.0), 1, 0),
                row("p2", 16, List.of(204.0), 1, 0), row("m", 8, List.of(90.0), 1, 0));
        WorkloadSummary w = workload(rows, t, null);
        assertThat(w.threadLevels()).containsExactly(8, 16, 32);
        assertThat(w.sweep().stream().filter(s -> s.target().equals("p1")).findFirst().orElseThrow().peakIndex())
                .isEqualTo(1);
        assertThat(w.sweep().stream().filter(s -> s.target().equals("m")).findFirst().orElseThrow().qps())
                .containsExactly(90.0, null, null);
        var scale = ReportAnalysis.scaleOut(List.of(w), t);
        assertThat(scale).hasSize(1);
        assertThat(scale.get(0).ratio()).isCloseTo(204.0 / 120.0, within(1e-12));
        // p2 peaks at its highest level: the sweep stopped too early; m ran one level only (no sweep to judge)
        Check beyond = Checklist.beyondPeak(List.of(w));
        assertThat(beyond.status()).isEqualTo("flag");
        assertThat(beyond.findings()).hasSize(1);
        assertThat(beyond.findings().get(0).args().get(0)).startsWith("p2");
        WorkloadSummary soak = workload(List.of(row("m", 8, List.of(90.0), 1, 0)), t, null);
        assertThat(Checklist.beyondPeak(List.of(soak)).status()).isEqualTo("na");
    }

    @Test
    void tie_whenTheDifferenceIsShownButWithinTheNoise_orNoneAtAll() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", null, null, "X", 1), "b",
                env("b", null, null, "X", 1)));
        // a: 970 and 1030 five times each (CV 3.16%, standard error 10); b: 975 ten times. The interval,
        // (1000 +- t(9) 10) / 975, lies above 1, but 2.6% is within a's 3.2% noise -> tie
        List<Double> a = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(970.0);
            a.add(1030.0);
        }
        Verdict noise = verdict(Verdicts.of(workload(List.of(row("a", 8, a, 5, 0),
                row("b", 8, java.util.Collections.nCopies(10, 975.0), 4, 0)), t, null), t), "throughput");
        assertThat(noise.interval().lowPct()).isPositive();
        assertThat(noise.noisePct()).isCloseTo(Math.sqrt(10 * 900.0 / 9) / 1000 * 100, within(1e-9));
        assertThat(noise.status()).isEqualTo("tie");
        assertThat(noise.tieReason().key()).isEqualTo("verdict.tie.noise");
        // equal figures with no variation at all: a tie, not a win decided by the target name
        Verdict equal = verdict(Verdicts.of(workload(List.of(row("a", 8, List.of(1000.0, 1000.0), 5, 0),
                row("b", 8, List.of(1000.0, 1000.0), 4, 0)), t, null), t), "throughput");
        assertThat(equal.status()).isEqualTo("tie");
    }

    @Test
    void checks_fewRounds_unfinishedSteps_clientCpu_warmup() {
        WorkloadSummary w = workload(List.of(row("a", 8, List.of(10.0, 11.0), 1, 20)), Map.of(), null);
        assertThat(Checklist.rounds(List.of(w)).status()).isEqualTo("flag");
        StepInfo s = new StepInfo("r", 1, "a", "jdbc:x", "w", 8, 1, 0, 1000, "{}", null, 0, null);
        var steps = List.of(new StepData(s, 0, null, null, 72.0, true));
        assertThat(Checklist.warmup(steps).status()).isEqualTo("flag");
        assertThat(Checklist.clientCpu(steps).status()).isEqualTo("flag");
        assertThat(Checklist.warmupSettled(steps).status()).isEqualTo("na");
        var noHealth = List.of(new StepData(s, 5, 100.0, 150.0, null, false));
        assertThat(Checklist.clientCpu(noHealth).status()).isEqualTo("na");
        assertThat(Checklist.warmupSettled(noHealth).status()).isEqualTo("flag");
    }

    @Test
    void soak_trendJitterAndStallShare_fromEveryMeasuredWindow() {
        long measureMs = 2 * 3600_000L;
        StepInfo s = new StepInfo("r", 1, "a", "jdbc:x", "w", 64, 1, 60_000, measureMs, "{}", "completed", 0, null);
        long start = 1_000_000L; // epoch s of the measurement start
        List<double[]> points = new java.util.ArrayList<>();
        points.add(new double[] {start - 1, 5, 1}); // warm-up window: left out
        for (int i = 0; i < 7200; i++) {
            points.add(new double[] {start + i, 1000 - 10.0 * i / 3600, 1}); // declines 10 QPS an hour
        }
        points.add(new double[] {start + 7200, 3, 1}); // the step's last, partial window: left out
        var stalls = List.of(new Stall("r", 1, "a", "w", 64, "hard", (start + 100) * 1000,
                (start + 160) * 1000), new Stall("r", 2, "a", "w", 64, "hard", 0, 1));
        Soak k = ReportAnalysis.soak(s, points, start * 1000, stalls);
        double mean = 0;
        for (int i = 0; i < 7200; i++) {
            mean += 1000 - 10.0 * i / 3600;
        }
        mean /= 7200;
        double var = 0;
        for (int i = 0; i < 7200; i++) {
            var += Math.pow(1000 - 10.0 * i / 3600 - mean, 2);
        }
        assertThat(k.hours()).isEqualTo(2.0);
        assertThat(k.meanQps()).isCloseTo(mean, within(1e-9));
        assertThat(k.trendPctPerHour()).isCloseTo(-10 / mean * 100, within(1e-9));
        assertThat(k.jitterPct()).isCloseTo(Math.sqrt(var / 7200) / mean * 100, within(1e-9));
        assertThat(k.firstHourQps()).isCloseTo(1000 - 10.0 * 3599 / 3600 / 2, within(1e-9));
        assertThat(k.stalls()).isEqualTo(1);
        assertThat(k.stallSeconds()).isEqualTo(60.0);
        assertThat(k.stallSharePct()).isCloseTo(60.0 / 7200 * 100, within(1e-12));
        // a short step is not a soak
        StepInfo shortStep = new StepInfo("r", 1, "a", "jdbc:x", "w", 64, 1, 0, 60_000, "{}", "completed", 0, null);
        assertThat(ReportAnalysis.soak(shortStep, points, start * 1000, stalls)).isNull();
    }
}
