package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link TpccRandom} against the specification's definitions: NURand's distribution against its exact probabilities
 * (enumerated from the two uniform draws it combines), the last names' syllables, the run's C_LAST rule, and the
 * shapes of the generated strings. Seeds are fixed: each test draws the same numbers every time.
 */
class TpccRandomTest {

    private static final TpccRandom.Constants C = new TpccRandom.Constants(123, 259, 7911);

    @Test
    void nuRand_followsItsExactDistribution() {
        for (int[] axy : new int[][] {{255, 0, 999}, {1023, 1, 3000}, {8191, 1, 100_000}}) {
            int a = axy[0];
            int x = axy[1];
            int y = axy[2];
            int c = a == 255 ? C.cLast() : a == 1023 ? C.cId() : C.olIId();
            int n = y - x + 1;
            // exact: every pair (r1, r2) of random(0, A) x random(x, y) is equally likely
            double[] p = new double[n];
            double pair = 1.0 / ((a + 1.0) * n);
            for (int r1 = 0; r1 <= a; r1++) {
                for (int r2 = x; r2 <= y; r2++) {
                    p[((r1 | r2) + c) % n] += pair;
                }
            }
            TpccRandom random = new TpccRandom(42, C);
            int draws = 40 * n;
            long[] seen = new long[n];
            for (int i = 0; i < draws; i++) {
                int v = random.nuRand(a, x, y);
                assertThat(v).isBetween(x, y);
                seen[v - x]++;
            }
            double chi2 = 0;
            for (int i = 0; i < n; i++) {
                double expected = draws * p[i];
                chi2 += (seen[i] - expected) * (seen[i] - expected) / expected;
            }
            assertThat(chi2).as("NURand(%d, %d, %d): chi-square over %d values", a, x, y, n)
                    .isLessThan(chiSquareQuantile(n - 1, 3.090232)); // the 99.9% quantile
            // and it is not uniform: the same draws against a uniform distribution are far out
            double uniformChi2 = Arrays.stream(seen).mapToDouble(s -> (s - 40.0) * (s - 40.0) / 40.0).sum();
            assertThat(uniformChi2).isGreaterThan(chiSquareQuantile(n - 1, 6.0));
        }
    }

    /** The Wilson-Hilferty approximation of the chi-square quantile of {@code df} degrees at standard normal z. */
    private static double chiSquareQuantile(int df, double z) {
        double h = 2.0 / (9.0 * df);
        return df * Math.pow(1 - h + z * Math.sqrt(h), 3);
    }

    @Test
    void nuRand_takesOnlyTheSpecificationsA() {
        assertThatThrownBy(() -> new TpccRandom(1, C).nuRand(511, 0, 999))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("255, 1023 or 8191");
    }

    @Test
    void lastNames_spellTheDigitsSyllables() {
        assertThat(TpccRandom.lastName(371)).isEqualTo("PRICALLYOUGHT"); // the specification's example
        assertThat(TpccRandom.lastName(0)).isEqualTo("BARBARBAR");
        assertThat(TpccRandom.lastName(999)).isEqualTo("EINGEINGEING");
        assertThat(IntStream.rangeClosed(0, 999).mapToObj(TpccRandom::lastName).distinct().count()).isEqualTo(1000);
        assertThatThrownBy(() -> TpccRandom.lastName(1000)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runConstants_keepTheirDistanceToTheLoads() {
        assertThat(TpccRandom.Constants.validRunDelta(100, 165)).isTrue();
        assertThat(TpccRandom.Constants.validRunDelta(165, 100)).isTrue();
        assertThat(TpccRandom.Constants.validRunDelta(100, 219)).isTrue();
        assertThat(TpccRandom.Constants.validRunDelta(100, 164)).isFalse();
        assertThat(TpccRandom.Constants.validRunDelta(100, 220)).isFalse();
        assertThat(TpccRandom.Constants.validRunDelta(100, 196)).isFalse();
        assertThat(TpccRandom.Constants.validRunDelta(100, 212)).isFalse();
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            TpccRandom.Constants load = TpccRandom.Constants.forLoad(r);
            TpccRandom.Constants run = TpccRandom.Constants.forRun(load, r);
            assertThat(TpccRandom.Constants.validRunDelta(load.cLast(), run.cLast())).isTrue();
        }
        assertThatThrownBy(() -> new TpccRandom.Constants(256, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void strings_haveTheirLengthsAndCharacters() {
        TpccRandom random = new TpccRandom(3, C);
        for (int i = 0; i < 10_000; i++) {
            assertThat(random.aString(8, 16)).matches("[0-9A-Za-z]{8,16}");
            assertThat(random.nString(4, 4)).matches("[0-9]{4}");
            assertThat(random.zip()).matches("[0-9]{4}11111");
        }
    }

    @Test
    void data_holdsOriginal_inAboutTenPercent() {
        TpccRandom random = new TpccRandom(5, C);
        int draws = 100_000;
        int original = 0;
        for (int i = 0; i < draws; i++) {
            String s = random.data(26, 50);
            assertThat(s.length()).isBetween(26, 50);
            original += s.contains(TpccRandom.ORIGINAL) ? 1 : 0;
        }
        // binomial(100,000, 0.1): standard deviation 94.9; six of them either side
        assertThat(original).isBetween(10_000 - 570, 10_000 + 570);
    }

    @Test
    void permutation_holdsEveryIdOnce() {
        int[] p = new TpccRandom(11, C).permutation(3_000);
        assertThat(Arrays.stream(p).sorted().toArray()).isEqualTo(IntStream.rangeClosed(1, 3_000).toArray());
        assertThat(p).isNotEqualTo(IntStream.rangeClosed(1, 3_000).toArray());
    }
}
