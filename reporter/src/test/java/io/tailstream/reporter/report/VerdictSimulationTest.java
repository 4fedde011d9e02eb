package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.report.Environment.TargetEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The throughput verdict on synthetic rounds with known truth: how often it names a winner between two equal
 * targets (A/A: a false win, at most 5% at every round count), and how often it finds a 10% difference. Rounds are
 * normal around the target's mean with the coefficient of variation given. The rates are in docs/report.md.
 */
class VerdictSimulationTest {

    private static final int PAIRS = 10_000;
    private static final Map<String, TargetEnv> TARGETS = new TreeMap<>(Map.of(
            "a", ReportAnalysisTest.env("a", null, null, "X", 1), "b", ReportAnalysisTest.env("b", null, null, "X", 1)));

    /** Share of {@link #PAIRS} pairs whose throughput verdict is a win. */
    private static double winRate(int rounds, double cv, double difference, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int wins = 0;
        for (int i = 0; i < PAIRS; i++) {
            List<Double> a = new ArrayList<>();
            List<Double> b = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                a.add(1000 * (1 + difference) * (1 + cv * gaussian(random)));
                b.add(1000 * (1 + cv * gaussian(random)));
            }
            WorkloadSummary w = ReportAnalysisTest.workload(List.of(ReportAnalysisTest.row("a", 8, a, 5, 0),
                    ReportAnalysisTest.row("b", 8, b, 5, 0)), TARGETS, null);
            Verdict v = ReportAnalysisTest.verdict(Verdicts.of(w, TARGETS), "throughput");
            if (v.status().equals(Verdict.WIN)) {
                wins++;
            }
        }
        return wins / (double) PAIRS;
    }

    /** A standard normal draw (Box-Muller). */
    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    @Test
    void aa_falseWinRate_atMost5Percent() {
        for (int rounds : new int[] {2, 3, 5, 10}) {
            for (double cv : new double[] {0.02, 0.05}) {
                double rate = winRate(rounds, cv, 0, 1000 + rounds);
                System.out.printf(Locale.ROOT, "A/A, %d rounds, CV %.0f%%: false win %.2f%%%n", rounds, cv * 100,
                        rate * 100);
                assertThat(rate).as("%d rounds, CV %.2f", rounds, cv).isLessThanOrEqualTo(0.05);
            }
        }
    }

    @Test
    void tenPercentDifference_foundMoreOftenWithMoreRounds() {
        double previous = -1;
        for (int rounds : new int[] {2, 3, 5, 10}) {
            double rate = winRate(rounds, 0.05, 0.10, 2000 + rounds);
            double quiet = winRate(rounds, 0.02, 0.10, 3000 + rounds);
            System.out.printf(Locale.ROOT, "10%% difference, %d rounds: found %.1f%% at CV 5%%, %.1f%% at CV 2%%%n",
                    rounds, rate * 100, quiet * 100);
            assertThat(rate).isGreaterThan(previous);
            assertThat(quiet).isGreaterThanOrEqualTo(rate);
            previous = rate;
        }
        assertThat(previous).as("10 rounds at CV 5%").isGreaterThan(0.9);
    }
}
