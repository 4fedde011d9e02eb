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
        return new TargetEnv(name, product, "1", "jdbc:x", nodes, cost, currency, null, null, List.of());
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

    @Test
    void throughput_gapSmallerThanSpread_isTie_largerIsWin() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 100.0, "USD", "X", 1)));
        // a: 1000 +- 50 (spread 100), b: 960 flat: gap 40 < 100 -> tie
        WorkloadSummary tie = workload(List.of(row("a", 8, List.of(950.0, 1000.0, 1050.0), 5, 0),
                row("b", 8, List.of(960.0, 960.0, 960.0), 4, 0)), t, null);
        Verdict v = verdict(ReportAnalysis.verdicts(tie, t), "throughput");
        assertThat(v.winner()).isEqualTo("a");
        assertThat(v.tie()).isTrue();
        assertThat(v.tiedWith()).containsExactly("b");
        assertThat(v.spread()).isEqualTo(100.0);
        assertThat(v.marginPct()).isCloseTo((1000 - 960) / 960.0 * 100, within(1e-9));
        // b at 880: gap 120 >= 100 -> a wins
        WorkloadSummary win = workload(List.of(row("a", 8, List.of(950.0, 1000.0, 1050.0), 5, 0),
                row("b", 8, List.of(880.0, 880.0, 880.0), 4, 0)), t, null);
        List<Verdict> vs = ReportAnalysis.verdicts(win, t);
        assertThat(verdict(vs, "throughput").tie()).isFalse();
        assertThat(vs).allSatisfy(x -> assertThat(x.indicative()).as(x.metric()).isFalse()); // 3 rounds each
        // P99: lower wins; cost: 100 / 1000 * 1000 = 100 per 1,000 QPS vs 113.6
        assertThat(verdict(vs, "p99").winner()).isEqualTo("b");
        assertThat(verdict(vs, "p99").threads()).isEqualTo(8);
        assertThat(verdict(vs, "cost").winner()).isEqualTo("a");
        assertThat(verdict(vs, "cost").value()).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void singleRound_differenceIsIndicative_notAWin_sameComputation() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 100.0, "USD", "X", 1)));
        // a in 3 rounds, b in one: b's spread is unknown, so a's lead is indicative on every metric
        List<Verdict> one = ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(990.0, 1000.0, 1010.0), 5, 0),
                row("b", 8, List.of(880.0), 4, 0)), t, null), t);
        Verdict tput = verdict(one, "throughput");
        assertThat(tput.winner()).isEqualTo("a");
        assertThat(tput.value()).isCloseTo(1000.0, within(1e-9));
        assertThat(tput.runnerUpValue()).isEqualTo(880.0);
        assertThat(tput.tie()).isFalse();
        assertThat(tput.indicative()).isTrue();
        assertThat(tput.spread()).as("unknown with one round, never 0").isNull();
        assertThat(verdict(one, "p99").winner()).isEqualTo("b");
        assertThat(verdict(one, "p99").indicative()).isTrue();
        assertThat(verdict(one, "cost").indicative()).isTrue();
        // a difference inside a's own spread is indicative too: b's spread is unknown, so neither a tie nor a win
        Verdict inside = verdict(ReportAnalysis.verdicts(workload(List.of(
                row("a", 8, List.of(990.0, 1000.0, 1010.0), 5, 0), row("b", 8, List.of(995.0), 4, 0)), t, null), t),
                "throughput");
        assertThat(inside.status()).isEqualTo("indicative");
        assertThat(inside.spread()).isNull();
        assertThat(inside.tiedWith()).isEmpty();
        // two rounds each: a win
        Verdict two = verdict(ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(1000.0, 1001.0), 5, 0),
                row("b", 8, List.of(880.0, 881.0), 4, 0)), t, null), t), "throughput");
        assertThat(two.status()).isEqualTo("win");
        assertThat(two.spread()).isEqualTo(1.0);
    }

    @Test
    void noVerdict_singleCandidate_noCommonThreads_mixedCurrencies() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", 100.0, "USD", "X", 1), "b",
                env("b", 700.0, "CNY", "X", 1)));
        List<Verdict> single = ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(10.0), 1, 0)), t, null),
                t);
        assertThat(single).allSatisfy(v -> assertThat(v.reason().key()).isEqualTo("verdict.reason.single"));
        List<Verdict> disjoint = ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(10.0), 1, 0),
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
    void tie_atExactlyTheSpread_winJustBeyondIt() {
        Map<String, TargetEnv> t = new TreeMap<>(Map.of("a", env("a", null, null, "X", 1), "b",
                env("b", null, null, "X", 1)));
        // a: 1000 +- 10 (spread 20); b: 980 in two equal rounds (spread 0): difference 20 = the larger spread -> tie
        Verdict atSpread = verdict(ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(990.0, 1010.0), 5, 0),
                row("b", 8, List.of(980.0, 980.0), 4, 0)), t, null), t), "throughput");
        assertThat(atSpread.status()).isEqualTo("tie");
        assertThat(atSpread.tiedWith()).containsExactly("b");
        assertThat(atSpread.spread()).isEqualTo(20.0);
        Verdict beyond = verdict(ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(990.0, 1010.0), 5, 0),
                row("b", 8, List.of(979.0, 979.0), 4, 0)), t, null), t), "throughput");
        assertThat(beyond.status()).isEqualTo("win");
        assertThat(beyond.tiedWith()).isEmpty();
        // equal figures with no spread at all: a tie, not a win decided by the target name
        Verdict equal = verdict(ReportAnalysis.verdicts(workload(List.of(row("a", 8, List.of(1000.0, 1000.0), 5, 0),
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
