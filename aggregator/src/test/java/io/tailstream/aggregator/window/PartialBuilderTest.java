package io.tailstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PartialBuilderTest {

    private static final SampleStatus[] STATUSES = SampleStatus.values();

    @Test
    void build_randomSamples_equalsTheAggregateOfTheSameSamples() {
        SplittableRandom random = new SplittableRandom(11);
        PartialBuilder builder = new PartialBuilder();
        for (int round = 0; round < 20; round++) { // the same builder, reset and reused
            int n = random.nextInt(1, 20_000);
            long[] buckets = new long[n];
            long[] errors = new long[SampleStatus.MAX_CODE + 1];
            long queries = 0;
            long warmup = 0;
            for (int i = 0; i < n; i++) {
                long latency = (long) Math.exp(random.nextDouble() * Math.log(5e9)) - 1;
                SampleStatus status = STATUSES[random.nextInt(STATUSES.length)];
                int q = random.nextInt(30);
                boolean w = random.nextInt(10) == 0;
                builder.record(latency, status.code(), q, w);
                buckets[i] = LatencyBuckets.bucketOf(latency);
                errors[status.code()]++;
                queries += q;
                warmup += w ? 1 : 0;
            }
            builder.addHeartbeat();
            builder.addBlocks(3);
            Arrays.sort(buckets);
            WindowAggregate expected = WindowAggregate.ofSamples("r", 1, "read",
                    SparseHistogram.ofSortedBuckets(buckets, n), errors, queries, warmup)
                    .mergeFrom(WindowAggregate.heartbeat("r", 1, "read")).addBlocks(3);

            assertThat(builder.build("r", 1, "read")).isEqualTo(expected);
            assertThat(builder.build("r", 1, "read").count()).isEqualTo(n);
            builder.reset();
            assertThat(builder.isEmpty()).isTrue();
            assertThat(builder.build("r", 1, "read").count()).isZero();
        }
    }

    @Test
    void addSamplesOf_mergesLatenciesAndCounters_butNotHeartbeatsOrBlocks() {
        PartialBuilder read = new PartialBuilder();
        PartialBuilder write = new PartialBuilder();
        read.record(100, SampleStatus.OK.code(), 1, false);
        read.record(250_000, SampleStatus.DEADLOCK.code(), 1, true);
        write.record(100, SampleStatus.OK.code(), 6, false);
        write.addHeartbeat();
        PartialBuilder all = new PartialBuilder();
        all.addBlocks(2);
        all.addSamplesOf(read);
        all.addSamplesOf(write);

        WindowAggregate expected = read.build("r", 1, "*").mergeFrom(write.build("r", 1, "*"));
        WindowAggregate merged = all.build("r", 1, "*");
        assertThat(merged.latencies()).isEqualTo(expected.latencies());
        assertThat(merged.count()).isEqualTo(3);
        assertThat(merged.queries()).isEqualTo(8);
        assertThat(merged.warmupCount()).isEqualTo(1);
        assertThat(merged.errors()).isEqualTo(1);
        assertThat(merged.errorsOf(SampleStatus.DEADLOCK)).isEqualTo(1);
        assertThat(merged.heartbeats()).isZero();
        assertThat(merged.blocks()).isEqualTo(2);
    }
}
