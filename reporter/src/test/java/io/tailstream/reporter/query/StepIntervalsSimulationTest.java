package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.interval.PercentInterval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code compare}'s intervals within single-round steps on simulated steps with known truth: a closed loop whose
 * slowness drifts from second to second (AR(1) of the log, coefficient 0.6, 10% standard deviation), so that
 * latency and throughput are autocorrelated together as on a real server. Two steps of the same system (A/A) are
 * judged worse in P99 or QPS at most 5% of the time at the default threshold; a system 10% slower is found. The
 * rates are in docs/queries.md.
 */
class StepIntervalsSimulationTest {

    private static final int UNITS = 120;
    private static final int PAIRS = 300;

    /** A step: its per-second series as compare builds it, and its exact QPS and P99. */
    private record Step(StepSeconds seconds, double qps, long p99Us) {}

    private static Step step(SplittableRandom random, double slower) {
        double x = gaussian(random) * 0.1;
        double[] statements = new double[UNITS];
        Map<Long, long[]> cells = new TreeMap<>();
        List<Long> all = new ArrayList<>();
        for (int u = 0; u < UNITS; u++) {
            x = 0.6 * x + Math.sqrt(1 - 0.36) * 0.1 * gaussian(random);
            double slowness = Math.exp(x) * slower;
            int n = (int) Math.round(200 / slowness);
            statements[u] = 10.0 * n;
            for (int i = 0; i < n; i++) {
                long latency = Math.max(1, Math.round(1000 * slowness * Math.exp(0.5 * gaussian(random))));
                all.add(latency);
                int bucket = (int) Math.floor(Math.log(latency) * 100);
                cells.computeIfAbsent((long) u << 20 | bucket, k -> new long[] {k >> 20, bucket, 0})[2]++;
            }
        }
        long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
        long p99 = sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
        double qps = Arrays.stream(statements).sum() / UNITS;
        return new Step(StepSeconds.build(1, statements, new ArrayList<>(cells.values())), qps, p99);
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** {worse in P99 at 5%, worse in QPS at 5%, worse in P99 at 0, worse in QPS at 0}: shares of the pairs. */
    private static double[] worse(double slower, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] out = new double[4];
        for (int i = 0; i < PAIRS; i++) {
            Step base = step(random, 1);
            Step cand = step(random, slower);
            PercentInterval[] in = StepIntervals.withinSteps((cand.qps() / base.qps() - 1) * 100,
                    (cand.p99Us() / (double) base.p99Us() - 1) * 100, base.seconds(), cand.seconds(), true);
            out[0] += in[1].above(5, null) ? 1 : 0;
            out[1] += in[0].below(-5, null) ? 1 : 0;
            out[2] += in[1].above(0, null) ? 1 : 0;
            out[3] += in[0].below(0, null) ? 1 : 0;
        }
        for (int k = 0; k < out.length; k++) {
            out[k] /= PAIRS;
        }
        return out;
    }

    @Test
    void aa_falseWorse_atMost5PercentAtTheDefaultThreshold() {
        double[] aa = worse(1, 42);
        System.out.printf(Locale.ROOT, "A/A, %d pairs of %d s: worse at threshold 5%%: P99 %.1f%%, QPS %.1f%%;"
                + " at threshold 0: P99 %.1f%%, QPS %.1f%%%n", PAIRS, UNITS, aa[0] * 100, aa[1] * 100, aa[2] * 100,
                aa[3] * 100);
        assertThat(aa[0]).as("P99 worse at 5%").isLessThanOrEqualTo(0.05);
        assertThat(aa[1]).as("QPS worse at 5%").isLessThanOrEqualTo(0.05);
    }

    /**
     * TPC-C's tpmC within single-round steps, on the same drifting closed loop: each second's New-Orders are its
     * transactions' share of them (10 in 23, binomial), and the candidate completes {@code share} times as many at the
     * same transaction rate. {coverage of the true change, worse at 5%, worse at 0}: shares of the pairs.
     */
    private static double[] tpmC(double share, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double truth = (share - 1) * 100;
        double[] out = new double[3];
        for (int i = 0; i < PAIRS; i++) {
            double[] base = newOrders(random, 1);
            double[] cand = newOrders(random, share);
            double change = (Arrays.stream(cand).sum() / Arrays.stream(base).sum() - 1) * 100;
            PercentInterval in = StepIntervals.rateWithinSteps(change, StepSeconds.build(1, base, List.of()),
                    StepSeconds.build(1, cand, List.of()));
            out[0] += in.lowPct() <= truth && truth <= in.highPct() ? 1 : 0;
            out[1] += in.below(-5, null) ? 1 : 0;
            out[2] += in.below(0, null) ? 1 : 0;
        }
        for (int k = 0; k < out.length; k++) {
            out[k] /= PAIRS;
        }
        return out;
    }

    /** Per-second New-Orders of a step: a binomial share ({@code 10/23 * share}) of each second's transactions. */
    private static double[] newOrders(SplittableRandom random, double share) {
        double x = gaussian(random) * 0.1;
        double p = 10.0 / 23 * share;
        double[] out = new double[UNITS];
        for (int u = 0; u < UNITS; u++) {
            x = 0.6 * x + Math.sqrt(1 - 0.36) * 0.1 * gaussian(random);
            int n = (int) Math.round(200 / Math.exp(x));
            for (int t = 0; t < n; t++) {
                out[u] += random.nextDouble() < p ? 1 : 0;
            }
        }
        return out;
    }

    @Test
    void tpmC_aa_andTenPercentFewerNewOrders() {
        double[] aa = tpmC(1, 44);
        double[] fewer = tpmC(0.9, 45);
        System.out.printf(Locale.ROOT, "tpmC, %d pairs of %d s: A/A coverage %.1f%%, worse at 5%% %.1f%%, at 0"
                + " %.1f%%; 10%% fewer New-Orders: coverage %.1f%%, worse at 5%% %.1f%%, at 0 %.1f%%%n", PAIRS, UNITS,
                aa[0] * 100, aa[1] * 100, aa[2] * 100, fewer[0] * 100, fewer[1] * 100, fewer[2] * 100);
        assertThat(aa[1]).as("A/A worse at 5%").isLessThanOrEqualTo(0.05);
        assertThat(aa[0]).as("A/A coverage").isGreaterThan(0.75);
        assertThat(fewer[0]).as("coverage of -10%").isGreaterThan(0.75);
        assertThat(fewer[2]).as("10% fewer: worse at 0").isGreaterThan(0.5);
    }

    @Test
    void tenPercentSlower_isFoundWorse() {
        double[] slow = worse(1.10, 43);
        System.out.printf(Locale.ROOT, "10%% slower, %d pairs of %d s: worse at threshold 5%%: P99 %.1f%%, QPS %.1f%%;"
                + " at threshold 0: P99 %.1f%%, QPS %.1f%%%n", PAIRS, UNITS, slow[0] * 100, slow[1] * 100,
                slow[2] * 100, slow[3] * 100);
        assertThat(slow[2]).as("P99 worse at 0").isGreaterThan(0.5);
        assertThat(slow[3]).as("QPS worse at 0").isGreaterThan(0.5);
    }
}
