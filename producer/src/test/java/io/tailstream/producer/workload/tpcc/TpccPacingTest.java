package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** {@link TpccPacing} against the specification's keying times, think-time distribution and maximum throughput. */
class TpccPacingTest {

    @Test
    void keyingTimes_asSpecified() {
        TpccPacing p = new TpccPacing(new TpccRandom(1, new TpccRandom.Constants(1, 2, 3)));
        assertThat(p.keyingNanos(TpccSession.NEW_ORDER)).isEqualTo(18_000_000_000L);
        assertThat(p.keyingNanos(TpccSession.PAYMENT)).isEqualTo(3_000_000_000L);
        assertThat(p.keyingNanos(TpccSession.STOCK_LEVEL)).isEqualTo(2_000_000_000L);
    }

    @Test
    void thinkTimes_negativeExponential_truncatedAtTenTimesTheMean() {
        // fixed seed: the same draws every time. E[min(X, 10m)] = m (1 - e^-10) for X exponential with mean m; the
        // mean of 400,000 draws is within 5 standard errors (m / sqrt(n)) of it, and so is P(X > m) = e^-1
        TpccPacing p = new TpccPacing(new TpccRandom(3, new TpccRandom.Constants(1, 2, 3)));
        int n = 400_000;
        double sum = 0;
        long above = 0;
        long max = 0;
        for (int i = 0; i < n; i++) {
            long t = p.thinkNanos(TpccSession.NEW_ORDER);
            sum += t;
            above += t > 12e9 ? 1 : 0;
            max = Math.max(max, t);
            assertThat(t).isGreaterThanOrEqualTo(0);
        }
        assertThat(sum / n / 1e9).isCloseTo(12 * (1 - Math.exp(-10)), within(5 * 12 / Math.sqrt(n)));
        assertThat((double) above / n).isCloseTo(Math.exp(-1), within(5 * Math.sqrt(0.25 / n)));
        assertThat(max).isLessThanOrEqualTo(120_000_000_000L);
    }

    @Test
    void theMaximumTpmCPerWarehouse_followsFromTheMixAndTheTimes() {
        double cycle = 0;
        for (int type = 0; type < TpccMix.CARDS.length; type++) {
            cycle += TpccMix.share(type) * (TpccPacing.KEYING_S[type] + TpccPacing.THINK_MEAN_S[type]);
        }
        assertThat(cycle).isCloseTo(476.0 / 23, within(1e-9));
        double perWarehouse = 10 * TpccMix.share(TpccSession.NEW_ORDER) * 60 / cycle;
        assertThat(perWarehouse).isCloseTo(TpccPacing.MAX_TPMC_PER_WAREHOUSE, within(0.005));
    }
}
