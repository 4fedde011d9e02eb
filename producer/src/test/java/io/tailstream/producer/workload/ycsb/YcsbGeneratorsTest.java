package io.tailstream.producer.workload.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The generators against their definitions: FNV golden values computed independently (Python, arbitrary precision
 * masked to 64 bits), zeta sums, and the probabilities Gray's algorithm gives the first items exactly
 * ({@code 1/zeta(n)} and {@code 0.5^theta/zeta(n)}), with tolerances of 5 standard deviations.
 */
class YcsbGeneratorsTest {

    static final int DRAWS = 1_000_000;

    @Test
    void fnvhash64_matchesIndependentGoldenValues() {
        assertThat(YcsbGenerators.fnvhash64(0)).isEqualTo(6284781860667377211L);
        assertThat(YcsbGenerators.fnvhash64(1)).isEqualTo(8517097267634966620L);
        assertThat(YcsbGenerators.fnvhash64(2)).isEqualTo(1820151046732198393L);
        assertThat(YcsbGenerators.fnvhash64(12345)).isEqualTo(1792800413050876852L);
        assertThat(YcsbGenerators.fnvhash64(999999)).isEqualTo(2744965632448235251L);
    }

    @Test
    void zeta_smallN_isTheExactSum() {
        double expected = 1 + 1 / Math.pow(2, 0.99) + 1 / Math.pow(3, 0.99);
        assertThat(YcsbGenerators.zeta(0, 3, 0.99, 0)).isCloseTo(expected, within(1e-15));
        // incremental: zeta(3) from zeta(1)
        assertThat(YcsbGenerators.zeta(1, 3, 0.99, 1.0)).isCloseTo(expected, within(1e-15));
    }

    @Test
    void zipfian_firstTwoItems_haveGraysExactProbabilities_andEveryDrawIsInRange() {
        long n = 1000;
        YcsbGenerators.Zipfian z = new YcsbGenerators.Zipfian(new SplittableRandom(1), 0, n - 1);
        double zetan = YcsbGenerators.zeta(0, n, 0.99, 0);
        assertThat(z.zetan()).isEqualTo(zetan);
        long[] counts = new long[(int) n];
        for (int i = 0; i < DRAWS; i++) {
            long v = z.next();
            assertThat(v).isBetween(0L, n - 1);
            counts[(int) v]++;
        }
        assertProbability(counts[0], 1 / zetan);
        assertProbability(counts[1], Math.pow(0.5, 0.99) / zetan);
        // skew: the head dominates, the tail is thin
        long top10 = 0;
        for (int i = 0; i < 10; i++) {
            top10 += counts[i];
        }
        assertThat((double) top10 / DRAWS).isGreaterThan(0.35);
    }

    @Test
    void scrambledZipfian_hottestKey_isFnvOfItemZero_withProbabilityOneOverYcsbZetan() {
        long min = 0;
        long items = 10_000;
        YcsbGenerators.ScrambledZipfian z = new YcsbGenerators.ScrambledZipfian(new SplittableRandom(2), min,
                min + items - 1);
        long hottest = min + YcsbGenerators.fnvhash64(0) % items;
        long second = min + YcsbGenerators.fnvhash64(1) % items;
        long[] counts = new long[(int) items];
        for (int i = 0; i < DRAWS; i++) {
            long v = z.next();
            assertThat(v).isBetween(min, min + items - 1);
            counts[(int) (v - min)]++;
        }
        // item 0 of the underlying zipfian has probability 1/ZETAN; other items may hash onto the same key, which
        // can only add (each further item is < 1/ZETAN / 2 and few collide), so the bound is one-sided above
        double p0 = 1 / YcsbGenerators.SCRAMBLED_ZETAN;
        assertThat((double) counts[(int) (hottest - min)] / DRAWS).isGreaterThan(p0 - 5 * sigma(p0));
        assertThat((double) counts[(int) (second - min)] / DRAWS)
                .isGreaterThan(Math.pow(0.5, 0.99) * p0 - 5 * sigma(Math.pow(0.5, 0.99) * p0));
        long max = 0;
        int argmax = -1;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > max) {
                max = counts[i];
                argmax = i;
            }
        }
        assertThat(argmax + min).isEqualTo(hottest);
    }

    @Test
    void skewedLatest_favoursTheLastAcknowledgedKey_andNeverGoesBeyondIt() {
        InsertCounter counter = new InsertCounter(1000);
        YcsbGenerators.SkewedLatest latest = new YcsbGenerators.SkewedLatest(new SplittableRandom(3), counter);
        long last = counter.lastValue();
        assertThat(last).isEqualTo(999);
        double zetan = YcsbGenerators.zeta(0, last, 0.99, 0);
        long atLast = 0;
        for (int i = 0; i < DRAWS; i++) {
            long v = latest.next();
            assertThat(v).isBetween(0L, last);
            if (v == last) {
                atLast++;
            }
        }
        assertProbability(atLast, 1 / zetan);
        // a new acknowledged insert becomes the hottest key
        counter.acknowledge(counter.next());
        long hits = 0;
        for (int i = 0; i < 100_000; i++) {
            long v = latest.next();
            assertThat(v).isLessThanOrEqualTo(1000);
            hits += v == 1000 ? 1 : 0;
        }
        assertThat(hits).isGreaterThan(10_000);
    }

    @Test
    void uniform_coversTheRangeEvenly() {
        YcsbGenerators.Uniform u = new YcsbGenerators.Uniform(new SplittableRandom(4), 10, 19);
        long[] counts = new long[10];
        for (int i = 0; i < DRAWS; i++) {
            long v = u.next();
            assertThat(v).isBetween(10L, 19L);
            counts[(int) v - 10]++;
        }
        for (long c : counts) {
            assertProbability(c, 0.1);
        }
    }

    @Test
    void insertCounter_lastValue_waitsForEveryEarlierAcknowledgement() {
        InsertCounter c = new InsertCounter(100);
        assertThat(c.lastValue()).isEqualTo(99);
        long a = c.next();
        long b = c.next();
        long d = c.next();
        assertThat(new long[] {a, b, d}).containsExactly(100, 101, 102);
        c.acknowledge(b);
        c.acknowledge(d);
        assertThat(c.lastValue()).isEqualTo(99);
        c.acknowledge(a);
        assertThat(c.lastValue()).isEqualTo(102);
    }

    private static double sigma(double p) {
        return Math.sqrt(p * (1 - p) / DRAWS);
    }

    private static void assertProbability(long count, double p) {
        assertThat((double) count / DRAWS).isCloseTo(p, within(5 * sigma(p)));
    }
}
