package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link AggregationProgress} counts: the samples of a step's base windows, late corrections included, and not
 * again those of its roll-ups (10 s and 60 s windows of the same samples, on the same topic).
 */
class AggregationProgressTest {

    private static final TopicPartition WINDOWS = new TopicPartition(Topics.WINDOWS, 0);
    private static final long T0 = 1_700_000_000_000L;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    private final AggregationProgress progress = new AggregationProgress(consumer);
    private long offset;

    AggregationProgressTest() {
        consumer.assign(List.of(WINDOWS));
        Map<TopicPartition, Long> beginning = new HashMap<>(Map.of(WINDOWS, 0L));
        consumer.updateBeginningOffsets(beginning);
    }

    @Test
    void rollups_areNotCountedAgain_lateCorrectionsAre() throws Exception {
        // 20 one-second windows of 10 samples each, their two 10 s roll-ups and their 60 s roll-up, as emitted
        for (int s = 0; s < 20; s++) {
            window(1, T0 + s * 1_000L, T0 + (s + 1) * 1_000L, 10);
            if (s % 10 == 9) {
                window(1, T0 + (s - 9) * 1_000L, T0 + (s + 1) * 1_000L, 100);
            }
        }
        window(1, T0, T0 + 60_000, 200);
        window(1, T0 + 3_000, T0 + 4_000, 2); // a late correction of second 3
        window(1, T0, T0 + 10_000, 2); // and of its 10 s roll-up, already emitted
        window(2, T0 + 30_000, T0 + 31_000, 7); // another step
        progress.poll(Duration.ZERO);

        assertThat(progress.countedSamples("r", 1)).isEqualTo(202);
        assertThat(progress.countedSamples("r", 2)).isEqualTo(7);
        assertThat(progress.countedSamples("r")).isEqualTo(209);
        assertThat(progress.countedByStep("r")).containsExactlyInAnyOrderEntriesOf(Map.of(1, 202L, 2, 7L));
        assertThat(progress.windowsSeen("r")).isEqualTo(22);
        assertThat(progress.countedSamples("other", 1)).isZero();
        progress.awaitCounts("r", Map.of(1, 202L, 2, 7L), Duration.ZERO);
        assertThatThrownBy(() -> progress.awaitCounts("r", Map.of(1, 201L), Duration.ZERO))
                .isInstanceOf(AggregationIncompleteException.class).hasMessageContaining("double counting");
    }

    @Test
    @Timeout(60)
    void anAggregatorThatStopped_endsTheWaitAtOnce_afterWhatItCommittedIsRead() throws Exception {
        window(1, T0, T0 + 1_000, 10);
        Duration hours = Duration.ofHours(1);

        assertThat(progress.awaitCountsWhileCounting("r", Map.of(1, 20L), hours, c -> { }, () -> false)).isFalse();
        assertThat(progress.countedSamples("r")).as("read before giving up").isEqualTo(10);
        assertThat(progress.awaitCountsWhileCounting("r", Map.of(1, 10L), hours, c -> { }, () -> false))
                .as("complete counts are complete, whoever counted them").isTrue();
        assertThatThrownBy(() -> progress.awaitCountsWhileCounting("r", Map.of(1, 9L), hours, c -> { }, () -> false))
                .isInstanceOf(AggregationIncompleteException.class).hasMessageContaining("double counting");
        assertThat(progress.awaitSummaries("r", List.of(1), hours, () -> false))
                .isEqualTo("run r: the aggregator stopped; no summary for step(s) [1]; no run summary");
    }

    @Test
    @Timeout(60)
    void anAggregatorThatRuns_isWaitedFor_untilItHasCounted() throws Exception {
        window(1, T0, T0 + 1_000, 10);
        int[] asked = {0};
        // the second window arrives after the wait has polled a few times
        boolean counted = progress.awaitCountsWhileCounting("r", Map.of(1, 15L), Duration.ofHours(1), c -> { }, () -> {
            if (++asked[0] == 3) {
                consumer.schedulePollTask(() -> window(1, T0 + 1_000, T0 + 2_000, 5));
            }
            return true;
        });
        assertThat(counted).isTrue();
        assertThat(asked[0]).isGreaterThanOrEqualTo(3);
    }

    private void window(int step, long start, long end, long count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(1_000, count);
        WindowStats w = WindowStats.of("r", step, WindowStats.ALL_OPS, start, end, count, 0, Map.of(), count,
                count, h, null, 0, 0, null);
        consumer.addRecord(new ConsumerRecord<>(Topics.WINDOWS, 0, offset++, null, Json.write(w)));
    }
}
