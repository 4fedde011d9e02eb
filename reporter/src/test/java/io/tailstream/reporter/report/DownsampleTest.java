package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DownsampleTest {

    @Test
    void short_series_keptWhole() {
        assertThat(Downsample.minMax(new double[] {3, 1, 2}, 2)).containsExactly(0, 1, 2);
    }

    @Test
    void long_series_keepsEveryBucketsMinAndMax_inOrder_soASingleDipSurvives() {
        int n = 43_200;
        double[] v = new double[n];
        Random r = new Random(1);
        for (int i = 0; i < n; i++) {
            v[i] = 1000 + r.nextInt(50);
        }
        v[18_000] = 0; // a one-second stall
        v[30_000] = 5000; // a one-second spike
        int buckets = 1200;
        int[] keep = Downsample.minMax(v, buckets);
        assertThat(keep.length).isLessThanOrEqualTo(2 * buckets).isGreaterThan(buckets);
        for (int i = 1; i < keep.length; i++) {
            assertThat(keep[i]).isGreaterThan(keep[i - 1]);
        }
        assertThat(keep).contains(18_000, 30_000);
        // reference: each bucket's min and max value appear among the kept points
        for (int b = 0; b < buckets; b++) {
            int from = (int) ((long) b * n / buckets);
            int to = (int) ((long) (b + 1) * n / buckets);
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (int i = from; i < to; i++) {
                min = Math.min(min, v[i]);
                max = Math.max(max, v[i]);
            }
            boolean hasMin = false;
            boolean hasMax = false;
            for (int k : keep) {
                if (k >= from && k < to) {
                    hasMin |= v[k] == min;
                    hasMax |= v[k] == max;
                }
            }
            assertThat(hasMin && hasMax).as("bucket " + b).isTrue();
        }
    }
}
