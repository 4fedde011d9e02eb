package io.tailstream.analysis.interval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BlockBootstrapTest {

    /** An AR(1) series around {@code mean}: {@code x_t = mean + phi (x_{t-1} - mean) + e_t}, stationary start. */
    static double[] ar1(Random random, int n, double mean, double phi, double sd) {
        double[] x = new double[n];
        double innovation = sd * Math.sqrt(1 - phi * phi);
        double dev = random.nextGaussian() * sd;
        for (int t = 0; t < n; t++) {
            dev = phi * dev + random.nextGaussian() * innovation;
            x[t] = mean + dev;
        }
        return x;
    }

    /**
     * For AR(1) the optimal block length has a closed form, {@code (6 phi^2 / (1 - phi^2)^2)^(1/3) n^(1/3)} (from
     * {@code G = 2 g0 phi / (1 - phi)^2} and {@code g(0) = g0 (1 + phi) / (1 - phi)}): the estimate, averaged over
     * series, is near it.
     */
    @Test
    void blockLength_nearTheClosedFormForAr1() {
        Random random = new Random(1);
        int n = 8_000;
        for (double phi : new double[] {0.3, 0.6, 0.8}) {
            double expected = Math.cbrt(6 * phi * phi / Math.pow(1 - phi * phi, 2)) * Math.cbrt(n);
            double sum = 0;
            int series = 20;
            for (int i = 0; i < series; i++) {
                sum += BlockBootstrap.blockLength(ar1(random, n, 100, phi, 5));
            }
            assertThat(sum / series).as("phi %s", phi).isBetween(expected * 0.7, expected * 1.3);
        }
        double[] iid = new double[n];
        for (int i = 0; i < n; i++) {
            iid[i] = random.nextGaussian();
        }
        assertThat(BlockBootstrap.blockLength(iid)).isLessThanOrEqualTo(3);
        assertThat(BlockBootstrap.blockLength(new double[] {1, 2, 3})).isEqualTo(1);
        double[] flat = new double[50];
        Arrays.fill(flat, 7);
        assertThat(BlockBootstrap.blockLength(flat)).isEqualTo(1);
    }

    @Test
    void resample_isNUnitsOfConsecutiveBlocks() {
        int[] r = BlockBootstrap.resample(10, 4, new SplittableRandom(3));
        assertThat(r).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(r[i]).isBetween(0, 9);
            if (i % 4 != 0) {
                assertThat(r[i]).isEqualTo(r[i - 1] + 1);
            }
        }
    }

    /**
     * Per-second throughput of two steps, autocorrelated (phi 0.6), the candidate 10% slower: the 95% interval holds
     * the true change in about 95% of simulated pairs; resampling single seconds (blocks of 1) holds it far less
     * often, which is why blocks.
     */
    @Test
    void coverage_nearNominal_andSingleSecondsFallShort() {
        Random random = new Random(23);
        int trials = 300;
        int covered = 0;
        int coveredIid = 0;
        for (int t = 0; t < trials; t++) {
            double[] base = ar1(random, 300, 1000, 0.6, 50);
            double[] cand = ar1(random, 300, 900, 0.6, 50);
            PercentInterval i = BlockBootstrap.ratioOfMeans(base, cand, 0.95);
            if (i.lowPct() <= -10 && -10 <= i.highPct()) {
                covered++;
            }
            PercentInterval single = BlockBootstrap.ratio(i.estimatePct(), base.length, 1, idx -> mean(base, idx),
                    cand.length, 1, idx -> mean(cand, idx), 0.95, 1_000);
            if (single.lowPct() <= -10 && -10 <= single.highPct()) {
                coveredIid++;
            }
        }
        System.out.printf("block bootstrap coverage %.1f%%, single seconds %.1f%%%n", covered * 100.0 / trials,
                coveredIid * 100.0 / trials);
        assertThat(covered / (double) trials).isBetween(0.89, 0.99);
        assertThat(coveredIid / (double) trials).isLessThan(0.85);
    }

    /**
     * A/A: two steps of the same system (per-second throughput, autocorrelation 0.6, 5 minutes each). {@code compare}
     * calls the candidate worse when the whole QPS interval lies below minus the threshold: at the default threshold
     * (5%) that never happens here; with no threshold at all, about as often as the interval misses low.
     */
    @Test
    void aa_falseWorseRate_atMostFivePercent() {
        Random random = new Random(77);
        int pairs = 1_000;
        int worseAt0 = 0;
        int worseAt5 = 0;
        for (int i = 0; i < pairs; i++) {
            double[] base = ar1(random, 300, 1000, 0.6, 50);
            double[] cand = ar1(random, 300, 1000, 0.6, 50);
            PercentInterval interval = BlockBootstrap.ratio(0, base.length, BlockBootstrap.blockLength(base),
                    idx -> mean(base, idx), cand.length, BlockBootstrap.blockLength(cand), idx -> mean(cand, idx),
                    0.95, 1_000);
            if (interval.highPct() < 0) {
                worseAt0++;
            }
            if (interval.highPct() < -5) {
                worseAt5++;
            }
        }
        System.out.printf("A/A, %d pairs of 300 s: worse at threshold 5%%: %.1f%%, at threshold 0: %.1f%%%n", pairs,
                worseAt5 * 100.0 / pairs, worseAt0 * 100.0 / pairs);
        assertThat(worseAt5 / (double) pairs).isLessThanOrEqualTo(0.05);
        assertThat(worseAt0 / (double) pairs).isLessThanOrEqualTo(0.10);
    }

    @Test
    void ratio_tooFewUnitsOrZeroBase_hasNoBounds() {
        assertThat(BlockBootstrap.ratioOfMeans(new double[] {5}, new double[] {1, 2}, 0.95).bounded()).isFalse();
        assertThat(BlockBootstrap.ratioOfMeans(new double[] {0, 0, 0}, new double[] {1, 2, 3}, 0.95).bounded())
                .isFalse();
        PercentInterval same = BlockBootstrap.ratioOfMeans(new double[] {4, 4, 4, 4}, new double[] {5, 5, 5, 5}, 0.95);
        assertThat(same.estimatePct()).isEqualTo(25.0);
        assertThat(same.lowPct()).isEqualTo(25.0);
        assertThat(same.highPct()).isEqualTo(25.0);
    }

    private static double mean(double[] x, int[] idx) {
        double s = 0;
        for (int i : idx) {
            s += x[i];
        }
        return s / idx.length;
    }
}
