package io.tailstream.analysis.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SegmentComparisonTest {

    /** Apache Otava's {@code test_significance_tester}. */
    @Test
    void otavaCases() {
        double[] same = {1.00, 1.02, 1.05, 0.95, 0.98, 1.00, 1.02, 1.05, 0.95, 0.98};
        assertThat(SegmentComparison.of(same, 0, 5, 10).pValue()).isBetween(0.99, 1.01);
        double[] lower = {1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77};
        assertThat(SegmentComparison.of(lower, 0, 5, 10).pValue()).isBetween(0.0, 0.001).isNotZero();
    }

    /**
     * With one and two degrees of freedom Student's t has closed forms: two-sided {@code p = 1 - 2/pi atan|t|} and
     * {@code p = 1 - |t| / sqrt(2 + t^2)}; t computed here by hand from the pooled variance.
     */
    @Test
    void pValue_matchesClosedForms() {
        // df 1: [1, 3] against [6]: population variances 1 and 0, pooled ((2-1)*1 + 0)/1 = 1
        double[] s = {1, 3, 6};
        double t = (2 - 6) / Math.sqrt(1 * (1.0 / 2 + 1.0 / 1));
        assertThat(SegmentComparison.of(s, 0, 2, 3).pValue())
                .isCloseTo(1 - 2 / Math.PI * Math.atan(Math.abs(t)), within(1e-12));
        // df 2: [1, 3] against [6, 10]: population variances 1 and 4, pooled (1 + 4) / 2
        double[] s2 = {1, 3, 6, 10};
        double t2 = (2 - 8) / Math.sqrt(2.5 * (1.0 / 2 + 1.0 / 2));
        assertThat(SegmentComparison.of(s2, 0, 2, 4).pValue())
                .isCloseTo(1 - Math.abs(t2) / Math.sqrt(2 + t2 * t2), within(1e-12));
    }

    @Test
    void degenerateSegments() {
        assertThat(SegmentComparison.of(new double[] {1, 2}, 0, 1, 2).pValue()).isEqualTo(1.0);
        assertThat(SegmentComparison.of(new double[] {3, 3, 3, 3}, 0, 2, 4).pValue()).isEqualTo(1.0);
        assertThat(SegmentComparison.of(new double[] {3, 3, 5, 5}, 0, 2, 4).pValue()).isEqualTo(0.0);
    }

    @Test
    void magnitude_weighsHalvingAndDoublingAlike() {
        SegmentComparison halving = SegmentComparison.of(new double[] {100, 100, 50, 50}, 0, 2, 4);
        assertThat(halving.forwardChange()).isEqualTo(-0.5);
        assertThat(halving.backwardChange()).isEqualTo(1.0);
        assertThat(halving.magnitude()).isEqualTo(1.0);
        assertThat(SegmentComparison.of(new double[] {50, 50, 100, 100}, 0, 2, 4).magnitude()).isEqualTo(1.0);
    }
}
