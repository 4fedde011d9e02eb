package io.tailstream.analysis.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EnergyStatisticTest {

    /** Q by its definition, every sum spelled out (Apache Otava's {@code compute_Q_and_candidate_slow}). */
    private static double bruteQ(double[] z, int start, int tau, int kappa) {
        int n = tau - start;
        int m = kappa - tau;
        double a = 0;
        for (int i = start; i < tau; i++) {
            for (int j = tau; j < kappa; j++) {
                a += Math.abs(z[i] - z[j]);
            }
        }
        double b = 0;
        for (int i = start; i < tau; i++) {
            for (int k = i + 1; k < tau; k++) {
                b += Math.abs(z[i] - z[k]);
            }
        }
        double c = 0;
        for (int j = tau; j < kappa; j++) {
            for (int k = j + 1; k < kappa; k++) {
                c += Math.abs(z[j] - z[k]);
            }
        }
        return 2.0 / (m + n) * a - (n > 1 ? 2.0 * m / (m + n) / (n - 1) * b : 0)
                - (m > 1 ? 2.0 * n / (m + n) / (m - 1) * c : 0);
    }

    @Test
    void best_matchesBruteForce_onRandomSlices() {
        Random random = new Random(3);
        for (int trial = 0; trial < 300; trial++) {
            double[] z = new double[2 + random.nextInt(40)];
            for (int i = 0; i < z.length; i++) {
                // ties (small integers) and a shift in the second half
                z[i] = random.nextInt(3) == 0 ? random.nextInt(5)
                        : random.nextGaussian() * 10 + (i > z.length / 2 ? 5 : 0);
            }
            int start = random.nextInt(z.length - 1);
            int end = start + 2 + random.nextInt(z.length - start - 1);
            double best = Double.NEGATIVE_INFINITY;
            int bestTau = -1;
            for (int tau = start + 1; tau < end; tau++) {
                for (int kappa = tau + 1; kappa <= end; kappa++) {
                    double q = bruteQ(z, start, tau, kappa);
                    if (q > best + 1e-9) {
                        best = q;
                        bestTau = tau;
                    }
                }
            }
            EnergyStatistic.Candidate c = new EnergyStatistic(z).best(start, end);
            if (best > 1e-9) {
                assertThat(c.qhat()).as("%s [%d, %d)", Arrays.toString(z), start, end).isCloseTo(best, within(1e-6));
                assertThat(bruteQ(z, start, c.index(), end) <= best + 1e-6).isTrue();
                assertThat(c.index()).as("%s [%d, %d)", Arrays.toString(z), start, end).isEqualTo(bestTau);
            } else {
                assertThat(c.qhat()).isCloseTo(0, within(1e-9));
            }
        }
    }

    /** MongoDB's signal-processing-algorithms publishes Q of these splits ({@code tests/test_detection.py}). */
    @Test
    void best_matchesMongoDbPublishedQhat() {
        double[] series = new double[30];
        Arrays.fill(series, 50);
        Arrays.fill(series, 15, 30, 100);
        series[2] = 100;
        EnergyStatistic.Candidate c = new EnergyStatistic(series).best(0, 30);
        assertThat(c.index()).isEqualTo(15);
        assertThat(c.qhat()).isCloseTo(649.9999999999999, within(1e-9));
    }

    @Test
    void best_ofAConstantSlice_isTheFirstZeroAsNumpyArgmaxPicksIt() {
        double[] flat = {4, 4, 4, 4, 4};
        assertThat(new EnergyStatistic(flat).best(0, 5)).isEqualTo(new EnergyStatistic.Candidate(1, 0.0));
        assertThat(new EnergyStatistic(flat).best(1, 3)).isEqualTo(new EnergyStatistic.Candidate(2, 0.0));
    }
}
