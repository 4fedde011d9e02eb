package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PercentChangeTest {

    @Test
    void orNull_changeInPercentOfTheBase_nullForAZeroBase() {
        assertThat(PercentChange.orNull(110, 100)).isEqualTo(10.0);
        assertThat(PercentChange.orNull(50, 200)).isEqualTo(-75.0);
        assertThat(PercentChange.orNull(0, 0)).isNull();
        assertThat(PercentChange.orNull(5, 0)).isNull();
    }

    @Test
    void orInfinity_sameChange_zeroBaseGivesZeroOrSignedInfinity() {
        assertThat(PercentChange.orInfinity(110, 100)).isEqualTo(10.0);
        assertThat(PercentChange.orInfinity(95, 100)).isEqualTo(-5.0);
        assertThat(PercentChange.orInfinity(0, 0)).isZero();
        assertThat(PercentChange.orInfinity(5, 0)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(PercentChange.orInfinity(-5, 0)).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void bothCallers_agreeWhereTheBaseIsNotZero() {
        java.util.Random random = new java.util.Random(5);
        for (int i = 0; i < 1_000; i++) {
            double base = random.nextDouble() * 2_000 - 1_000;
            double value = random.nextDouble() * 2_000 - 1_000;
            assertThat(PercentChange.orNull(value, base)).isEqualTo(PercentChange.orInfinity(value, base))
                    .isEqualTo((value - base) / base * 100);
        }
    }
}
