package io.tailstream.analysis.change;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Error rates of the detector at its defaults, measured on simulated series of known truth (normal noise around a
 * mean, seeded: the figures are the same on every run). The numbers printed are the ones the user documentation
 * quotes.
 */
class ChangePointSimulationTest {

    private static final ChangePointDetector DETECTOR = new ChangePointDetector(ChangePointSettings.DEFAULTS);

    private static double[] series(Random random, int length, double cv, int changeAt, double change) {
        double[] s = new double[length];
        for (int i = 0; i < length; i++) {
            s[i] = 1000 * (i >= changeAt ? 1 + change : 1) * (1 + random.nextGaussian() * cv);
        }
        return s;
    }

    /**
     * A/A: runs of an unchanged system; any change point found is a false alarm. Without the threshold per length
     * the rate grows with the series (printed for the documentation, not asserted).
     */
    @Test
    void aa_falseChangeRate_isAtMostFivePercent() {
        int[] lengths = {10, 20, 50, 100, 200};
        ChangePointDetector uncorrected = new ChangePointDetector(new ChangePointSettings(0.001, 0, 3, 50, false));
        for (int length : lengths) {
            double rate = falseChangeRate(DETECTOR, length);
            System.out.printf("A/A, %d runs: %.1f%% of 1000 series with a change point%s%n", length, rate * 100,
                    length > 50 ? String.format(" (%.1f%% without the threshold per length)",
                            falseChangeRate(uncorrected, length) * 100) : "");
            assertThat(rate).as("false change rate over %d runs", length).isLessThanOrEqualTo(0.05);
        }
    }

    private static double falseChangeRate(ChangePointDetector detector, int length) {
        Random random = new Random(2026 + length);
        int series = 1_000;
        int alarms = 0;
        for (int i = 0; i < series; i++) {
            if (!detector.detect(series(random, length, 0.05, Integer.MAX_VALUE, 0)).isEmpty()) {
                alarms++;
            }
        }
        return alarms / (double) series;
    }

    /**
     * A 10% drop after 30 runs, noise {@code cv}: found when a change point lands within 2 runs of the true one once
     * the series has grown by {@code delay} runs past it; the median delay over the series where it was found.
     */
    @Test
    void tenPercentDrop_detectionRateAndDelay() {
        double[] cvs = {0.02, 0.05};
        for (double cv : cvs) {
            Random random = new Random(99);
            int series = 300;
            int before = 30;
            int maxDelay = 20;
            int found = 0;
            int[] delays = new int[series];
            for (int i = 0; i < series; i++) {
                double[] s = series(random, before + maxDelay, cv, before, -0.10);
                for (int delay = 1; delay <= maxDelay; delay++) {
                    List<ChangePoint> cps = DETECTOR.detect(Arrays.copyOf(s, before + delay));
                    if (cps.stream().anyMatch(c -> Math.abs(c.index() - before) <= 2)) {
                        delays[found++] = delay;
                        break;
                    }
                }
            }
            int[] d = Arrays.copyOf(delays, found);
            Arrays.sort(d);
            double rate = found / (double) series;
            System.out.printf("10%% drop, noise %.0f%%: found in %d of %d series (%.1f%%) within %d runs, median"
                    + " delay %d runs%n", cv * 100, found, series, rate * 100, maxDelay,
                    found == 0 ? -1 : d[found / 2]);
            assertThat(rate).as("detection rate at noise %s", cv).isGreaterThanOrEqualTo(cv <= 0.02 ? 0.99 : 0.8);
        }
    }
}
