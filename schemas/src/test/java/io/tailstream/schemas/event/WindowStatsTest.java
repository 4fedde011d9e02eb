package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class WindowStatsTest {

    @Test
    void figures_matchAnExactComputationOverTheRawLatencies() {
        SplittableRandom rnd = new SplittableRandom(3);
        int n = 50_000;
        long[] raw = new long[n];
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < n; i++) {
            raw[i] = (long) Math.exp(rnd.nextDouble(4, 14)); // 55 µs .. 1.2 s, log-spread
            LatencyHistograms.record(h, raw[i]);
        }
        WindowStats w = WindowStats.of("r", 1, WindowStats.ALL_OPS, 10_000, 11_000, h, 100, Map.of("deadlock", 100L),
                n * 20L, 0, 0);
        Arrays.sort(raw);
        assertThat(w.count()).isEqualTo(n);
        assertThat(w.qps()).isEqualTo(n * 20.0);
        assertThat(w.tps()).isEqualTo(n - 100.0);
        assertThat(w.meanMicros()).isCloseTo(Arrays.stream(raw).average().orElseThrow(), within(
                Arrays.stream(raw).average().orElseThrow() * 1e-3));
        assertPercentile(w.p50Micros(), raw, 50);
        assertPercentile(w.p95Micros(), raw, 95);
        assertPercentile(w.p99Micros(), raw, 99);
        assertPercentile(w.p999Micros(), raw, 99.9);
        assertThat(w.maxMicros()).isCloseTo(raw[n - 1], within((long) (raw[n - 1] * 1e-3) + 1));
        Histogram back = LatencyHistograms.fromBase64(w.histogram());
        assertThat(back).isEqualTo(h);
    }

    /** Nearest rank: the smallest value with at least p% of the samples at or below it, within 10^-3. */
    private static void assertPercentile(long actual, long[] sorted, double p) {
        long exact = sorted[(int) Math.ceil(p / 100 * sorted.length) - 1];
        assertThat(actual).as("p%s", p).isCloseTo(exact, within((long) (exact * 1e-3) + 1));
    }

    @Test
    void emptyWindow_hasZeroFiguresNotNaN() {
        WindowStats w = WindowStats.of("r", 1, "op", 0, 1_000, LatencyHistograms.create(), 0, Map.of(), 0, 0, 0);
        assertThat(w.count()).isZero();
        assertThat(w.qps()).isZero();
        assertThat(w.meanMicros()).isZero();
        assertThat(w.p99Micros()).isZero();
    }

    @Test
    void latencyBeyondTheRange_isClampedAndReported() {
        Histogram h = LatencyHistograms.create();
        assertThat(LatencyHistograms.record(h, LatencyHistograms.HIGHEST_TRACKABLE_MICROS + 1)).isTrue();
        assertThat(LatencyHistograms.record(h, 10)).isFalse();
        assertThat(h.getTotalCount()).isEqualTo(2);
    }

    @Test
    void jsonRoundTrip() {
        Histogram h = LatencyHistograms.create();
        h.recordValue(100);
        WindowStats w = WindowStats.of("r", 1, "op", 0, 1_000, h, 0, Map.of(), 1, 1, 0);
        assertThat(Json.read(Json.write(w), WindowStats.class)).isEqualTo(w);
        assertThat(w.scopeKey()).isEqualTo("r/1/op");
    }
}
