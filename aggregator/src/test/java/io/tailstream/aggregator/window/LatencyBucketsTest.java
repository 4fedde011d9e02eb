package io.tailstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {

    private static final Histogram TEMPLATE = LatencyHistograms.create();

    @Test
    void indexOf_everyBucketBoundaryAndRandomValues_agreesWithHdrHistogram() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1_000_000; i++) {
            long v = i < 200_000 ? i : (long) Math.exp(random.nextDouble() * Math.log(4e9));
            assertBucket(v);
        }
        // every bucket edge up to the highest trackable value, and the values just around it
        for (int index = 0; index < LatencyBuckets.COUNT; index++) {
            long lowest = LatencyBuckets.bucketAt(index);
            assertThat(LatencyBuckets.indexOf(lowest)).isEqualTo(index);
            assertBucket(lowest);
            assertBucket(lowest - 1);
            assertBucket(TEMPLATE.highestEquivalentValue(lowest));
        }
        assertBucket(LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        assertBucket(LatencyHistograms.HIGHEST_TRACKABLE_MICROS + 1);
        assertBucket(Long.MAX_VALUE);
        assertBucket(-5);
    }

    @Test
    void indexes_areDenseAndAscending() {
        long previous = -1;
        for (int index = 0; index < LatencyBuckets.COUNT; index++) {
            long bucket = LatencyBuckets.bucketAt(index);
            assertThat(bucket).as("bucket at %d", index).isGreaterThan(previous);
            previous = bucket;
        }
        assertThat(LatencyBuckets.bucketAt(LatencyBuckets.COUNT - 1))
                .isEqualTo(TEMPLATE.lowestEquivalentValue(LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
    }

    private static void assertBucket(long latencyMicros) {
        long clamped = Math.min(Math.max(0, latencyMicros), LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        int index = LatencyBuckets.indexOf(latencyMicros);
        assertThat(index).as("index of %d", latencyMicros).isBetween(0, LatencyBuckets.COUNT - 1);
        assertThat(LatencyBuckets.bucketAt(index)).as("bucket of %d", latencyMicros)
                .isEqualTo(TEMPLATE.lowestEquivalentValue(clamped))
                .isEqualTo(LatencyBuckets.bucketOf(latencyMicros));
    }
}
