package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The streaming soak figures against a two-pass computation over the same windows, and on a known trend. */
class SoakTrendTest {

    private static final double T0 = 1_764_000_000;

    @Test
    void everyFigure_equalsTheTwoPassComputation_afterEachWindow() {
        SplittableRandom random = new SplittableRandom(7);
        int n = 3 * 3600 + 500; // three hours and more of 1 s windows, with gaps
        double[] t = new double[n];
        double[] q = new double[n];
        double at = T0;
        SoakTrend trend = new SoakTrend();
        for (int i = 0; i < n; i++) {
            at += random.nextInt(10) == 0 ? 1 + random.nextInt(5) : 1; // a missing window now and then
            t[i] = at;
            q[i] = 20_000 - 0.3 * i + random.nextDouble(-2_000, 2_000);
            trend.add(t[i], q[i]);
            if (i == 1 || i == 999 || i == 3600 || i == n - 1) {
                assertMatches(trend, t, q, i + 1);
            }
        }
    }

    private static void assertMatches(SoakTrend trend, double[] t, double[] q, int n) {
        double meanT = 0;
        double meanQ = 0;
        for (int i = 0; i < n; i++) {
            meanT += (t[i] - t[0]) / 3600;
            meanQ += q[i];
        }
        meanT /= n;
        meanQ /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        double first = 0;
        int firstN = 0;
        double last = 0;
        int lastN = 0;
        for (int i = 0; i < n; i++) {
            double dt = (t[i] - t[0]) / 3600 - meanT;
            sxy += dt * (q[i] - meanQ);
            sxx += dt * dt;
            syy += (q[i] - meanQ) * (q[i] - meanQ);
            if (t[i] < t[0] + 3600) {
                first += q[i];
                firstN++;
            }
            if (t[i] > t[n - 1] - 3600) {
                last += q[i];
                lastN++;
            }
        }
        assertThat(trend.windows()).isEqualTo(n);
        assertThat(trend.meanQps()).isCloseTo(meanQ, within(1e-9 * meanQ));
        assertThat(trend.trendPctPerHour()).isCloseTo(sxy / sxx / meanQ * 100, within(1e-9));
        assertThat(trend.jitterPct()).isCloseTo(Math.sqrt(syy / n) / meanQ * 100, within(1e-9));
        assertThat(trend.firstHourQps()).isCloseTo(first / firstN, within(1e-9 * meanQ));
        assertThat(trend.lastHourQps()).isCloseTo(last / lastN, within(1e-6));
    }

    @Test
    void aSteadyDecline_isItsSlope_andNoJitterBeyondIt() {
        SoakTrend trend = new SoakTrend();
        for (int i = 0; i < 12 * 3600; i++) {
            trend.add(T0 + i, 10_000 - 100.0 * i / 3600); // 100 QPS less every hour for 12 hours
        }
        double mean = 10_000 - 100.0 * (12 * 3600 - 1) / 3600 / 2;
        assertThat(trend.meanQps()).isCloseTo(mean, within(1e-6));
        assertThat(trend.trendPctPerHour()).isCloseTo(-100 / mean * 100, within(1e-9));
        assertThat(trend.firstHourQps()).isCloseTo(10_000 - 100.0 * 3599 / 3600 / 2, within(1e-6));
        assertThat(trend.lastHourQps()).isCloseTo(10_000 - 100.0 * (11 * 3600 + (11 * 3600 + 3599)) / 2 / 3600,
                within(1e-6));
        // a straight line's spread: 100 QPS/h over 12 h, uniform, has sd 1200 / sqrt(12)
        assertThat(trend.jitterPct()).isCloseTo(1200 / Math.sqrt(12) / mean * 100, within(0.01));
    }

    @Test
    void noWindows_orOne_haveNoTrend() {
        SoakTrend trend = new SoakTrend();
        assertThat(trend.trendPctPerHour()).isZero();
        assertThat(trend.jitterPct()).isZero();
        trend.add(T0, 500);
        assertThat(trend.trendPctPerHour()).isZero();
        assertThat(trend.jitterPct()).isZero();
        assertThat(trend.meanQps()).isEqualTo(500);
        assertThat(trend.lastHourQps()).isEqualTo(500);
    }
}
