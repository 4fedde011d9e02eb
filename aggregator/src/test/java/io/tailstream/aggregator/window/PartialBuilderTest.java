package io.tailstream.aggregator.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PartialBuilderTest {

    private static final SampleStatus[] STATUSES = SampleStatus.values();

    /** Reference model: the samples of one phase and outcome, as bucket keys, errors and statements. */
    private static final class Kind {
        final List<Long> buckets = new ArrayList<>();
        final long[] errors = new long[SampleStatus.MAX_CODE + 1];
        long queries;
        /** Statements that succeeded (sysbench's rule: a failed sample's all but its failing last one). */
        long succeeded;

        SparseHistogram sparse() {
            long[] sorted = buckets.stream().mapToLong(Long::longValue).sorted().toArray();
            return SparseHistogram.ofSortedBuckets(sorted, sorted.length);
        }
    }

    @Test
    void build_randomSamples_equalsTheAggregateOfTheSameSamplesByPhaseAndOutcome() {
        SplittableRandom random = new SplittableRandom(11);
        BucketPool pool = new BucketPool();
        PartialBuilder builder = new PartialBuilder(pool);
        for (int round = 0; round < 20; round++) { // the same builder, reset and reused
            int n = random.nextInt(1, 20_000);
            // rounds without failures or warm-up too: the builder must not borrow sets it does not need
            boolean failures = round % 3 != 0;
            boolean warmups = round % 4 != 0;
            Kind[] kinds = {new Kind(), new Kind(), new Kind(), new Kind()}; // measured ok/failed, warm-up ok/failed
            for (int i = 0; i < n; i++) {
                long latency = (long) Math.exp(random.nextDouble() * Math.log(5e9)) - 1;
                SampleStatus status = failures ? STATUSES[random.nextInt(STATUSES.length)] : SampleStatus.OK;
                int q = random.nextInt(30);
                boolean w = warmups && random.nextInt(10) == 0;
                builder.record(latency, status.code(), q, w);
                Kind k = kinds[(w ? 2 : 0) + (status.isError() ? 1 : 0)];
                k.buckets.add(LatencyBuckets.bucketOf(latency));
                k.errors[status.code()]++;
                k.queries += q;
                k.succeeded += Sample.succeededStatements(!status.isError(), q);
            }
            assertThat(pool.inUse()).as("sets borrowed, round " + round)
                    .isEqualTo((failures ? 1 : 0) + (warmups ? 1 : 0) + (failures && warmups ? 1 : 0));
            builder.addHeartbeat();
            builder.addBlocks(3);
            // per phase: statements that succeeded, and the failing ones (the rest of every statement sent)
            WindowAggregate expected = WindowAggregate.ofSamples("r", 1, "read", kinds[0].sparse(), kinds[1].sparse(),
                            kinds[1].errors, kinds[0].succeeded + kinds[1].succeeded,
                            kinds[1].queries - kinds[1].succeeded, false)
                    .mergeFrom(WindowAggregate.ofSamples("r", 1, "read", kinds[2].sparse(), kinds[3].sparse(),
                            kinds[3].errors, kinds[2].succeeded + kinds[3].succeeded,
                            kinds[3].queries - kinds[3].succeeded, true))
                    .mergeFrom(WindowAggregate.heartbeat("r", 1, "read")).addBlocks(3);

            WindowAggregate built = builder.build("r", 1, "read");
            assertThat(built).isEqualTo(expected);
            assertThat(built.count()).isEqualTo(n);
            assertThat(built.warmupCount()).isEqualTo(kinds[2].buckets.size() + kinds[3].buckets.size());
            assertThat(built.errors()).isEqualTo(kinds[1].buckets.size() + kinds[3].buckets.size());
            assertThat(built.okQueries()).isEqualTo(kinds[0].succeeded + kinds[1].succeeded + kinds[2].succeeded
                    + kinds[3].succeeded);
            assertThat(built.queries()).isEqualTo(kinds[0].queries + kinds[1].queries + kinds[2].queries
                    + kinds[3].queries);
            builder.reset();
            assertThat(pool.inUse()).isZero();
            assertThat(builder.isEmpty()).isTrue();
            assertThat(builder.build("r", 1, "read").count()).isZero();
        }
    }

    @Test
    void addSamplesOf_mergesLatenciesAndCounters_butNotHeartbeatsOrBlocks() {
        BucketPool pool = new BucketPool();
        PartialBuilder read = new PartialBuilder(pool);
        PartialBuilder write = new PartialBuilder(pool);
        read.record(100, SampleStatus.OK.code(), 1, false);
        read.record(250_000, SampleStatus.DEADLOCK.code(), 1, true);
        write.record(100, SampleStatus.OK.code(), 6, false);
        write.addHeartbeat();
        PartialBuilder all = new PartialBuilder(pool);
        all.addBlocks(2);
        all.addSamplesOf(read);
        all.addSamplesOf(write);

        WindowAggregate expected = read.build("r", 1, "*").mergeFrom(write.build("r", 1, "*"));
        WindowAggregate merged = all.build("r", 1, "*");
        assertThat(merged.successfulLatencies()).isEqualTo(expected.successfulLatencies());
        assertThat(merged.failedLatencies()).isEqualTo(expected.failedLatencies());
        assertThat(merged.count()).isEqualTo(3);
        assertThat(merged.queries()).isEqualTo(8);
        assertThat(merged.okQueries()).isEqualTo(7);
        assertThat(merged.warmupCount()).isEqualTo(1);
        assertThat(merged.errors()).isEqualTo(1);
        assertThat(merged.errorsOf(SampleStatus.DEADLOCK)).isEqualTo(1);
        assertThat(merged.heartbeats()).isZero();
        assertThat(merged.blocks()).isEqualTo(2);
        assertThat(pool.inUse()).isEqualTo(2); // read's and all's warm-up failures
    }

    @Test
    void toWindowStats_describesSuccessfulWork_andCarriesTheMeasuredPartOfAMixedWindow() {
        PartialBuilder b = new PartialBuilder();
        b.record(2_000, SampleStatus.OK.code(), 10, true);          // warm-up
        b.record(50, SampleStatus.DEADLOCK.code(), 10, true);       // warm-up, failed fast
        b.record(1_000, SampleStatus.OK.code(), 10, false);         // measured
        b.record(3_000, SampleStatus.OK.code(), 10, false);         // measured
        b.record(7, SampleStatus.CONNECTION_LOST.code(), 1, false); // measured, failed fast
        WindowStats w = b.build("r", 1, "*").toWindowStats(4_000, 5_000);

        assertThat(w.count()).isEqualTo(5);
        assertThat(w.errors()).isEqualTo(2);
        assertThat(w.queries()).isEqualTo(41);
        // statements that succeeded: 10 + 10 + 10, and 9 of the warm-up failure's 10 (its last one failed)
        assertThat(w.okQueries()).isEqualTo(39);
        assertThat(w.qps()).isEqualTo(39.0);
        assertThat(w.tps()).isEqualTo(3.0);
        assertThat(w.errorsPerSecond()).isEqualTo(2.0);
        assertThat(w.p50Micros()).isEqualTo(2_000); // of 1,000, 2,000, 3,000: the 7 and 50 µs failures are apart
        assertThat(LatencyHistograms.fromBase64(w.errorHistogram()).getTotalCount()).isEqualTo(2);
        WindowPart m = w.measured();
        assertThat(m).isNotNull();
        assertThat(m.count()).isEqualTo(3);
        assertThat(m.errors()).isEqualTo(1);
        assertThat(m.errorsByClass()).containsExactly(java.util.Map.entry("connection_lost", 1L));
        assertThat(m.queries()).isEqualTo(21);
        assertThat(m.okQueries()).isEqualTo(20);
        Histogram ok = m.successfulLatencies();
        assertThat(ok.getTotalCount()).isEqualTo(2);
        assertThat(ok.getMinValue()).isEqualTo(1_000);
        assertThat(m.failedLatencies().getMaxValue()).isEqualTo(7);

        PartialBuilder measuredOnly = new PartialBuilder();
        measuredOnly.record(1_000, SampleStatus.OK.code(), 10, false);
        assertThat(measuredOnly.build("r", 1, "*").toWindowStats(4_000, 5_000).measured()).isNull();
    }
}
