package io.tailstream.analysis.interval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PercentIntervalTest {

    private static PercentInterval of(double estimate, Double low, Double high) {
        return new PercentInterval(estimate, low, high, 0.95);
    }

    @Test
    void above_needsTheWholeIntervalBeyond_andTheEstimateBeyondTheNoise() {
        PercentInterval i = of(8, 3.0, 13.0);
        assertThat(i.above(0, null)).isTrue();
        assertThat(i.above(3, null)).as("the bound itself is not beyond").isFalse();
        assertThat(i.above(0, 7.9)).isTrue();
        assertThat(i.above(0, 8.0)).as("a change no larger than the noise").isFalse();
        assertThat(i.below(0, null)).isFalse();
        assertThat(of(-8, -13.0, -3.0).below(0, 5.0)).isTrue();
        assertThat(of(-8, -13.0, -3.0).below(-3, null)).isFalse();
    }

    @Test
    void withoutBounds_theEstimateDecides() {
        assertThat(of(6, null, null).above(5, null)).isTrue();
        assertThat(of(6, null, null).above(5, 6.5)).isFalse();
        assertThat(of(-6, null, null).below(-5, null)).isTrue();
        assertThat(of(6, null, null).smallestDetectablePct()).isNull();
    }

    @Test
    void smallestDetectable_isHalfTheWidth() {
        PercentInterval i = of(1, -2.0, 4.5);
        assertThat(i.coversZero()).isTrue();
        assertThat(i.smallestDetectablePct()).isEqualTo(3.25);
    }
}
