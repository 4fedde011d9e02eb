package io.tailstream.analysis.interval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;

class FiellerTest {

    /** The interval is the set of ratios r with (a - r b)^2 <= t^2 (va + r^2 vb): found here by scanning r. */
    @Test
    void bounds_matchAScanOfTheDefiningInequality() {
        Random random = new Random(5);
        int unbounded = 0;
        for (int trial = 0; trial < 200; trial++) {
            double a = 100 + random.nextGaussian() * 20;
            double b = 100 + random.nextGaussian() * 20;
            int na = 2 + random.nextInt(10);
            int nb = 2 + random.nextInt(10);
            double varA = Math.pow(1 + random.nextDouble() * 15, 2);
            double varB = Math.pow(1 + random.nextDouble() * 15, 2);
            PercentInterval interval = Fieller.ratioOfMeans(a, varA, na, b, varB, nb, 0.95);
            double va = varA / na;
            double vb = varB / nb;
            double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
            double t = TDistribution.of(df).inverseSurvivalProbability(0.025);
            if (!interval.bounded()) {
                // unbounded: ratios far out on either side pass
                assertThat(passes(a, b, va, vb, t, -1e6) || passes(a, b, va, vb, t, 1e6)).isTrue();
                unbounded++;
                continue;
            }
            double fromR = interval.lowPct() / 100 + 1 - 0.5;
            double toR = interval.highPct() / 100 + 1 + 0.5;
            double stepR = (toR - fromR) / 400_000;
            double low = Double.NaN;
            double high = Double.NaN;
            for (double r = fromR; r <= toR; r += stepR) {
                if (passes(a, b, va, vb, t, r)) {
                    if (Double.isNaN(low)) {
                        low = r;
                    }
                    high = r;
                }
            }
            assertThat(passes(a, b, va, vb, t, fromR) || passes(a, b, va, vb, t, toR)).isFalse();
            double tolerance = stepR * 100 * 1.01;
            assertThat(interval.lowPct()).isCloseTo((low - 1) * 100, within(tolerance));
            assertThat(interval.highPct()).isCloseTo((high - 1) * 100, within(tolerance));
            assertThat(interval.estimatePct()).isCloseTo((a / b - 1) * 100, within(1e-9));
        }
        assertThat(unbounded).isBetween(1, 100);
    }

    private static boolean passes(double a, double b, double va, double vb, double t, double r) {
        return (a - r * b) * (a - r * b) <= t * t * (va + r * r * vb);
    }

    /** Simulated normal samples of known means: the 95% interval holds the true ratio about 95% of the time. */
    @Test
    void coverage_isNominal() {
        Random random = new Random(17);
        int trials = 4_000;
        int covered = 0;
        for (int trial = 0; trial < trials; trial++) {
            int na = 3 + trial % 8;
            int nb = 3 + trial % 5;
            double[] xa = sample(random, 90, 6, na);
            double[] xb = sample(random, 100, 4, nb);
            PercentInterval i = Fieller.ratioOfMeans(xa, xb, 0.95);
            if (i.lowPct() <= -10 && -10 <= i.highPct()) {
                covered++;
            }
        }
        // binomial sd at 95% over 4,000 trials is 0.34%: Welch's approximation keeps coverage within a point of it
        assertThat(covered / (double) trials).isBetween(0.935, 0.965);
    }

    @Test
    void unknownOrUnboundedIntervals_haveNoBounds() {
        assertThat(Fieller.ratioOfMeans(10, Double.NaN, 1, 10, 1, 5, 0.95).bounded()).isFalse();
        // the base's mean is not significantly away from 0
        assertThat(Fieller.ratioOfMeans(10, 1, 5, 0.5, 25, 5, 0.95).bounded()).isFalse();
        assertThat(Fieller.ratioOfMeans(10, 1, 5, 0, 1, 5, 0.95).estimatePct()).isNaN();
        PercentInterval exact = Fieller.ratioOfMeans(110, 0, 3, 100, 0, 3, 0.95);
        assertThat(exact.lowPct()).isCloseTo(10, within(1e-9));
        assertThat(exact.highPct()).isCloseTo(10, within(1e-9));
    }

    private static double[] sample(Random random, double mean, double sd, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = mean + random.nextGaussian() * sd;
        }
        return x;
    }
}
