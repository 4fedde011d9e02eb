package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The distributions against sb_rand.c's formulas, with scripted uniform draws and with many random ones. */
class SysbenchRandomTest {

    static SysbenchRandom scripted(SysbenchOptions o, Double... draws) {
        Deque<Double> q = new ArrayDeque<>(List.of(draws));
        return new SysbenchRandom(o, q::removeFirst);
    }

    @Test
    void special_specialBranch_mapsDrawNearTheCentre() {
        // a=1, b=10000: t=9999, range_size=4*9999; u=0.5 -> res=19998 >= t: special value
        // d = 99.99; res = 0.5*100.99 + 9999/2 - 9999*0.005 = 50.495 + 4999.5 - 49.995 = 5000.0 -> 1 + 5000
        SysbenchRandom r = scripted(SysbenchOptions.defaults(), 0.5);
        assertThat(r.special(1, 10_000)).isEqualTo(5001);
    }

    @Test
    void special_gaussianBranch_isMeanOfTwelveDraws() {
        // u=0.1 -> res = 0.1*39996 = 3999.6 < 9999: gaussian; 12 draws of 0.5 -> sum 6 -> 1 + 6*9999/12 = 5000.5
        Double[] draws = new Double[13];
        draws[0] = 0.1;
        for (int i = 1; i < 13; i++) {
            draws[i] = 0.5;
        }
        assertThat(scripted(SysbenchOptions.defaults(), draws).special(1, 10_000)).isEqualTo(1 + 4999);
    }

    @Test
    void special_distribution_matchesDefinition() {
        SysbenchOptions o = SysbenchOptions.defaults();
        SysbenchRandom r = SysbenchRandom.seeded(o, 42);
        int n = 400_000;
        long a = 1;
        long b = 10_000;
        // the special branch: u in [0.25, 1) -> ids 1 + floor(u*100.99 + 4949.505): [4975, 5051]
        long lo = a + (long) (0.25 * 100.99 + 4949.505);
        long hi = a + (long) (Math.nextDown(1.0) * 100.99 + 4949.505);
        assertThat(lo).isEqualTo(4975);
        assertThat(hi).isEqualTo(5051);
        int inSpecialRange = 0;
        for (int i = 0; i < n; i++) {
            long v = r.special(a, b);
            assertThat(v).isBetween(a, b);
            if (v >= lo && v <= hi) {
                inSpecialRange++;
            }
        }
        // P = 0.75 (special branch) + 0.25 * P(gaussian branch lands in [lo, hi]); the gaussian value is
        // 1 + floor(S * 9999 / 12) with S ~ Irwin-Hall(12), so it lands there iff S in [12*(lo-1)/9999, 12*hi/9999)
        double pGauss = irwinHallCdf(12, 12.0 * hi / 9999) - irwinHallCdf(12, 12.0 * (lo - 1) / 9999);
        assertThat(pGauss).isBetween(0.035, 0.039);
        double expected = 0.75 + 0.25 * pGauss;
        double sd = Math.sqrt(expected * (1 - expected) / n);
        assertThat((double) inSpecialRange / n).isCloseTo(expected, org.assertj.core.data.Offset.offset(5 * sd));
    }

    @Test
    void uniform_coversRangeEvenly() {
        SysbenchRandom r = SysbenchRandom.seeded(SysbenchOptions.defaults(), 7);
        int[] counts = new int[10];
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            long v = r.uniform(1, 10);
            counts[(int) v - 1]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(n / 10 - 1000, n / 10 + 1000);
        }
    }

    @Test
    void uniform_andPareto_truncateAsSbRand() {
        assertThat(scripted(SysbenchOptions.defaults(), 0.0).uniform(1, 10)).isEqualTo(1);
        assertThat(scripted(SysbenchOptions.defaults(), Math.nextDown(1.0)).uniform(1, 10)).isEqualTo(10);
        SysbenchOptions p = SysbenchOptions.parse(Map.of("rand_type", "pareto"));
        // power = log(0.2)/log(0.8) = 7.2126; 0.5^7.2126 = 0.006748 -> 1 + floor(10000*0.006748) = 68
        double power = Math.log(0.2) / Math.log(0.8);
        long expected = 1 + (long) (10_000 * Math.pow(0.5, power));
        assertThat(scripted(p, 0.5).next(1, 10_000)).isEqualTo(expected).isEqualTo(68);
    }

    @Test
    void string_fillsDigitsOnly() {
        SysbenchRandom r = SysbenchRandom.seeded(SysbenchOptions.defaults(), 1);
        String c = r.string(OltpSql.C_TEMPLATE);
        assertThat(c).hasSize(119).matches("([0-9]{11}-){9}[0-9]{11}");
    }

    /** CDF of the sum of n uniforms on [0, 1): (1/n!) * sum_{k=0}^{floor(x)} (-1)^k C(n,k) (x-k)^n. */
    static double irwinHallCdf(int n, double x) {
        double sum = 0;
        double binom = 1;
        double factorial = 1;
        for (int i = 2; i <= n; i++) {
            factorial *= i;
        }
        for (int k = 0; k <= Math.floor(x); k++) {
            sum += (k % 2 == 0 ? 1 : -1) * binom * Math.pow(x - k, n);
            binom = binom * (n - k) / (k + 1);
        }
        return sum / factorial;
    }
}
