package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.IOException;
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
        Histogram failed = LatencyHistograms.create();
        for (int i = 0; i < 100; i++) {
            failed.recordValue(3 + i % 5); // fast failures: never in the successful samples' figures
        }
        WindowStats w = WindowStats.of("r", 1, WindowStats.ALL_OPS, 10_000, 11_000, n + 100, 100,
                Map.of("deadlock", 100L), n * 20L + 100, n * 20L, h, failed, 0, 0, null);
        Arrays.sort(raw);
        assertThat(w.version()).isEqualTo(WindowStats.VERSION);
        assertThat(w.count()).isEqualTo(n + 100);
        assertThat(w.qps()).isEqualTo(n * 20.0);
        assertThat(w.tps()).isEqualTo(n);
        assertThat(w.errorsPerSecond()).isEqualTo(100.0);
        assertThat(w.okQueries()).isEqualTo(n * 20L);
        assertThat(w.meanMicros()).isCloseTo(Arrays.stream(raw).average().orElseThrow(), within(
                Arrays.stream(raw).average().orElseThrow() * 1e-3));
        assertPercentile(w.p50Micros(), raw, 50);
        assertPercentile(w.p95Micros(), raw, 95);
        assertPercentile(w.p99Micros(), raw, 99);
        assertPercentile(w.p999Micros(), raw, 99.9);
        assertPercentile(w.p9999Micros(), raw, 99.99);
        assertThat(w.maxMicros()).isCloseTo(raw[n - 1], within((long) (raw[n - 1] * 1e-3) + 1));
        Histogram back = LatencyHistograms.fromBase64(w.histogram());
        assertThat(back).isEqualTo(h);
        assertThat(LatencyHistograms.fromBase64(w.errorHistogram())).isEqualTo(failed);
        assertThat(w.measured()).isNull();
        assertThat(w.measuredPart()).isEqualTo(w.whole());
        assertThat(w.whole().successful()).isEqualTo(n);
    }

    /** Nearest rank: the smallest value with at least p% of the samples at or below it, within 10^-3. */
    private static void assertPercentile(long actual, long[] sorted, double p) {
        long exact = sorted[(int) Math.ceil(p / 100 * sorted.length) - 1];
        assertThat(actual).as("p%s", p).isCloseTo(exact, within((long) (exact * 1e-3) + 1));
    }

    @Test
    void emptyWindow_hasZeroFiguresNotNaN() {
        WindowStats w = WindowStats.of("r", 1, "op", 0, 1_000, 0, 0, Map.of(), 0, 0, LatencyHistograms.create(),
                null, 0, 0, null);
        assertThat(w.count()).isZero();
        assertThat(w.errorHistogram()).isNull();
        assertThat(w.measuredPart()).isEqualTo(WindowPart.EMPTY);
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
        WindowStats w = GOLDEN_V2;
        assertThat(Json.read(Json.write(w), WindowStats.class)).isEqualTo(w);
        assertThat(w.scopeKey()).isEqualTo("run-1/3/*");
    }

    /**
     * A window across the measurement start: 3 warm-up samples (one failed), 4 measured (one failed fast); the
     * measured part is what a step summary adds up.
     */
    static final WindowStats GOLDEN_V2 = goldenV2();

    private static WindowStats goldenV2() {
        Histogram okAll = histogram(900, 1200, 1800, 2100, 2600);
        Histogram failedAll = histogram(30, 4000);
        Histogram okMeasured = histogram(1200, 2100, 2600);
        Histogram failedMeasured = histogram(30);
        WindowPart measured = WindowPart.of(4, 1, Map.of("deadlock", 1L), 80, 60, okMeasured, failedMeasured);
        return WindowStats.of("run-1", 3, WindowStats.ALL_OPS, 1_700_000_002_000L, 1_700_000_003_000L, 7, 2,
                Map.of("deadlock", 1L, "lock_wait_timeout", 1L), 140, 100, okAll, failedAll, 3, 0, measured);
    }

    private static Histogram histogram(long... micros) {
        Histogram h = LatencyHistograms.create();
        for (long v : micros) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void goldenJson_v2_isWhatWeWrite_andReadsBack() throws IOException {
        WindowStats back = Golden.assertWrittenAndRead("/golden/window-stats-v2.json", GOLDEN_V2);
        assertThat(back.qps()).isEqualTo(100.0);
        assertThat(back.tps()).isEqualTo(5.0);
        assertThat(back.errorsPerSecond()).isEqualTo(2.0);
        assertThat(back.measuredPart().successful()).isEqualTo(3);
        assertThat(back.measuredPart().okQueries()).isEqualTo(60);
        assertThat(back.measuredPart().successfulLatencies().getTotalCount()).isEqualTo(3);
        assertThat(back.measuredPart().failedLatencies().getMaxValue()).isEqualTo(30);
    }

    @Test
    void goldenJson_v1_staysReadable_withVersion1Meanings() throws IOException {
        WindowStats v1 = Json.read(Golden.resource("/golden/window-stats-v1.json"), WindowStats.class);
        assertThat(v1.version()).isEqualTo(1);
        assertThat(v1.count()).isEqualTo(10);
        assertThat(v1.errors()).isEqualTo(1);
        assertThat(v1.qps()).isEqualTo(200.0);
        assertThat(v1.measured()).isNull();
        assertThat(v1.errorHistogram()).isNull();
        // version 1 kept every sample in one histogram, and counted every statement
        WindowPart whole = v1.whole();
        assertThat(whole.successfulLatencies().getTotalCount()).isEqualTo(10);
        assertThat(whole.okQueries()).isEqualTo(200);
        assertThat(v1.measuredPart()).isEqualTo(whole);
        Histogram h = histogram(850, 900, 1200, 1250, 1800, 2100, 2600, 4000, 9500, 420);
        assertThat(v1).isEqualTo(WindowStats.ofVersion1("run-1", 3, WindowStats.ALL_OPS, 1_700_000_002_000L,
                1_700_000_003_000L, h, 1, Map.of("deadlock", 1L), 200, 0, 0));
    }

    @Test
    void measuredPart_ofWhollyWarmupAndMixedWindows() {
        WindowStats warm = WindowStats.of("r", 1, "op", 0, 1_000, 2, 0, Map.of(), 2, 2, histogram(5, 6), null, 2, 0,
                null);
        assertThat(warm.measuredPart()).isEqualTo(WindowPart.EMPTY);
        assertThat(GOLDEN_V2.measuredPart()).isSameAs(GOLDEN_V2.measured());
    }

    @Test
    void measuredPart_mustCountTheSamplesThatAreNotWarmup() {
        WindowPart wrong = WindowPart.of(3, 0, Map.of(), 3, 3, histogram(1, 2, 3), null);
        assertThatThrownBy(() -> WindowStats.of("r", 1, "op", 0, 1_000, 5, 0, Map.of(), 5, 5,
                histogram(1, 2, 3, 4, 5), null, 1, 0, wrong))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("r/1/op @0").hasMessageContaining("counts 3 samples")
                .hasMessageContaining("count - warmupCount is 4");
    }
}
