package io.tailstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Arrays;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class WindowAggregateSerdeTest {

    @Test
    void sparseHistogram_ofRandomLatencies_hasExactlyTheCountsOfAnHdrHistogramFedTheRawValues() {
        Random random = new Random(1);
        long[] raw = new long[20_000];
        Histogram reference = LatencyHistograms.create();
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (long) Math.exp(random.nextDouble() * Math.log(5_000_000_000.0)); // up to past the range
            LatencyHistograms.record(reference, raw[i]);
        }
        // split in two halves, merged: same as one histogram
        SparseHistogram a = sparse(Arrays.copyOfRange(raw, 0, 7_000));
        SparseHistogram b = sparse(Arrays.copyOfRange(raw, 7_000, raw.length));
        Histogram merged = a.merge(b).toHistogram();
        assertThat(merged).isEqualTo(reference);
        assertThat(a.merge(b)).isEqualTo(b.merge(a));
        assertThat(merged.getValueAtPercentile(99.9)).isEqualTo(reference.getValueAtPercentile(99.9));
        assertThat(a.merge(b).totalCount()).isEqualTo(raw.length);
    }

    @Test
    void roundTrip_keepsEveryField() {
        long[] errors = new long[SampleStatus.MAX_CODE + 1];
        errors[SampleStatus.DEADLOCK.code()] = 3;
        errors[SampleStatus.OTHER_ERROR.code()] = 1;
        WindowAggregate a = WindowAggregate.ofSamples("run/with/slashes", 7, "read_write",
                sparse(new long[] {5, 900, 1_234_567, 3_600_000_000L}), sparse(new long[] {5, 7, 12, 9_000}), errors,
                100, 2, false);
        a.mergeFrom(WindowAggregate.ofSamples("run/with/slashes", 7, "read_write", sparse(new long[] {800, 801}),
                SparseHistogram.EMPTY, new long[SampleStatus.MAX_CODE + 1], 6, 0, true));
        a.mergeFrom(WindowAggregate.heartbeat("run/with/slashes", 7, "read_write"));
        a.mergeFrom(WindowAggregate.tick("run/with/slashes", 7, "read_write"));
        WindowAggregate back = WindowAggregateSerde.deserialize(WindowAggregateSerde.serialize(a));
        assertThat(back).isEqualTo(a);
        assertThat(back.errors()).isEqualTo(4);
        assertThat(back.count()).isEqualTo(10);
        assertThat(back.warmupCount()).isEqualTo(2);
        assertThat(back.okQueries()).isEqualTo(106);
        assertThat(back.heartbeats()).isEqualTo(1);
        assertThat(back.ticks()).isEqualTo(1);
        assertThat(WindowAggregateSerde.deserialize(WindowAggregateSerde.serialize(new WindowAggregate())))
                .isEqualTo(new WindowAggregate());
    }

    @Test
    void serialize_partialOfAFewSamples_isTensOfBytesNotAFullHistogram() {
        WindowAggregate few = WindowAggregate.ofSamples("r", 1, "point_select", sparse(new long[] {180, 220, 5000}),
                SparseHistogram.EMPTY, new long[SampleStatus.MAX_CODE + 1], 3, 0, false);
        assertThat(WindowAggregateSerde.serialize(few).length).isLessThan(40);
    }

    @Test
    void deserialize_garbageOrTruncated_throwsSerializationException() {
        byte[] good = WindowAggregateSerde.serialize(WindowAggregate.heartbeat("r", 1, "*"));
        assertThatThrownBy(() -> WindowAggregateSerde.deserialize(Arrays.copyOf(good, good.length - 1)))
                .isInstanceOf(SerializationException.class).hasMessageContaining("truncated");
        byte[] badVersion = good.clone();
        badVersion[0] = 9;
        assertThatThrownBy(() -> WindowAggregateSerde.deserialize(badVersion))
                .isInstanceOf(SerializationException.class).hasMessageContaining("version 9");
        // a bucket count that claims more buckets than bytes present must not allocate
        byte[] hostile = {1, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};
        assertThatThrownBy(() -> WindowAggregateSerde.deserialize(hostile))
                .isInstanceOf(SerializationException.class);
    }

    /**
     * Version 2 bytes, as aggregators before window stats version 2 wrote them (one histogram of every sample): still
     * read, with every latency and statement among the successful samples and the counts exact.
     */
    @Test
    void deserialize_version2_restoresCountsAndErrors_withEveryLatencyInTheSuccessfulSamples() {
        byte[] v2 = {2, 1, 1, 'r', 7, 2, 'o', 'p', // version, scope "r"/7/"op"
                1, 30, 0, 0, 1, 0, 4,             // errors 1, queries 30, warm-up 0, late 0, heartbeats 1, ticks 0, blocks 4
                1, 1, 1,                          // one error code: deadlock x 1
                2, 100, 2, 100, 1};               // buckets 100 x 2, 200 x 1
        WindowAggregate a = WindowAggregateSerde.deserialize(v2);
        assertThat(a.scopeKey()).isEqualTo("r/7/op");
        assertThat(a.count()).isEqualTo(3);
        assertThat(a.errors()).isEqualTo(1);
        assertThat(a.queries()).isEqualTo(30);
        assertThat(a.warmupCount()).isZero();
        assertThat(a.blocks()).isEqualTo(4);
        assertThat(a.heartbeats()).isEqualTo(1);
        assertThat(a.successfulLatencies().totalCount()).isEqualTo(3);
        assertThat(a.toWindowStats(0, 1_000).tps()).isEqualTo(2.0);
        // and written back in the current version
        assertThat(WindowAggregateSerde.deserialize(WindowAggregateSerde.serialize(a))).isEqualTo(a);
    }

    /** Version 4 carries the producers of a partial (a tick names the producers whose end it carries). */
    @Test
    void roundTrip_keepsTheProducers_andMergingUnitesThem() {
        WindowAggregate a = WindowAggregate.heartbeat("r", 1, "*").withProducers(java.util.Set.of("gen-b"));
        a.mergeFrom(WindowAggregate.tick("r", 1, "*", java.util.Set.of("gen-a", "gen-c")));
        assertThat(a.producers()).containsExactly("gen-a", "gen-b", "gen-c");
        WindowAggregate back = WindowAggregateSerde.deserialize(WindowAggregateSerde.serialize(a));
        assertThat(back).isEqualTo(a);
        assertThat(back.producers()).containsExactly("gen-a", "gen-b", "gen-c");
    }

    /** Version 3 bytes (no producers) still read, with no producers. */
    @Test
    void deserialize_version3_readsWithoutProducers() {
        byte[] v4 = WindowAggregateSerde.serialize(WindowAggregate.tick("r", 7, "op"));
        assertThat(v4[v4.length - 1]).as("no producers: a zero count last").isZero();
        byte[] v3 = Arrays.copyOf(v4, v4.length - 1);
        v3[0] = 3;
        WindowAggregate a = WindowAggregateSerde.deserialize(v3);
        assertThat(a).isEqualTo(WindowAggregate.tick("r", 7, "op"));
        assertThat(a.producers()).isEmpty();
    }

    private static SparseHistogram sparse(long[] latencies) {
        long[] buckets = Arrays.stream(latencies).map(LatencyBuckets::bucketOf).sorted().toArray();
        return SparseHistogram.ofSortedBuckets(buckets, buckets.length);
    }
}
