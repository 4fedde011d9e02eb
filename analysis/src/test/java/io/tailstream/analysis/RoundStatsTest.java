package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RoundStatsTest {

    @Test
    void of_knownRounds() {
        RoundStats s = RoundStats.of(List.of(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0));
        assertThat(s.count()).isEqualTo(8);
        assertThat(s.mean()).isEqualTo(5.0);
        assertThat(s.sampleStdDev()).isCloseTo(Math.sqrt(32.0 / 7), within(1e-15));
        assertThat(s.min()).isEqualTo(2.0);
        assertThat(s.max()).isEqualTo(9.0);
        assertThat(s.spread()).isEqualTo(7.0);
        assertThat(s.cvPct()).isCloseTo(Math.sqrt(32.0 / 7) / 5 * 100, within(1e-12));
    }

    @Test
    void of_oneRound_deviationUnknown_spreadZero() {
        RoundStats s = RoundStats.of(new double[] {1234.5});
        assertThat(s.mean()).isEqualTo(1234.5);
        assertThat(s.sampleStdDev()).isNull();
        assertThat(s.spread()).isZero();
        assertThat(s.cvPct()).as("unknown with one round, never 0").isNull();
        assertThat(RoundStats.of(new double[] {0, 0}).cvPct()).isZero();
        assertThatThrownBy(() -> RoundStats.of(new double[0])).hasMessageContaining("at least one round");
    }

    /**
     * Reference: exact decimal arithmetic (mean, then squared deviations), rounded once. Large values with a small
     * spread, where a one-pass sum of squares would lose every digit, are part of the draw.
     */
    @Test
    void of_matchesExactArithmetic_onRandomRounds() {
        Random random = new Random(3);
        MathContext mc = MathContext.DECIMAL128;
        for (int i = 0; i < 2_000; i++) {
            int n = 1 + random.nextInt(6);
            double base = random.nextBoolean() ? 1e9 : 100;
            double[] v = new double[n];
            for (int k = 0; k < n; k++) {
                v[k] = base + random.nextDouble() * 10;
            }
            BigDecimal sum = BigDecimal.ZERO;
            for (double x : v) {
                sum = sum.add(new BigDecimal(x));
            }
            BigDecimal mean = sum.divide(BigDecimal.valueOf(n), mc);
            RoundStats s = RoundStats.of(v);
            assertThat(s.mean()).isCloseTo(mean.doubleValue(), within(Math.ulp(mean.doubleValue()) * 4));
            assertThat(s.min()).isEqualTo(Arrays.stream(v).min().orElseThrow());
            assertThat(s.max()).isEqualTo(Arrays.stream(v).max().orElseThrow());
            assertThat(s.spread()).isEqualTo(s.max() - s.min());
            if (n == 1) {
                assertThat(s.sampleStdDev()).isNull();
                continue;
            }
            BigDecimal squares = BigDecimal.ZERO;
            for (double x : v) {
                BigDecimal d = new BigDecimal(x).subtract(mean, mc);
                squares = squares.add(d.multiply(d, mc), mc);
            }
            double sd = Math.sqrt(squares.divide(BigDecimal.valueOf(n - 1), mc).doubleValue());
            assertThat(s.sampleStdDev()).as("%s", Arrays.toString(v)).isCloseTo(sd, within(sd * 1e-6 + 1e-9));
        }
    }
}
