package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.AggregatorStatus.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** The status lines and gauges of a restart, driven by hand with a controlled clock. */
class AggregatorStatusTest {

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final List<String> lines = new ArrayList<>();
    private final AggregatorStatus status = new AggregatorStatus(lines::add, clock::get);

    @Test
    void restoration_progressAtMostEveryThreeSeconds_thenRestoredAndRunning() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        status.bindTo(registry);
        TopicPartition windows = new TopicPartition("app-window-aggregates-changelog", 0);
        TopicPartition steps = new TopicPartition("app-steps-changelog", 1);
        status.starting("aggregator app");
        status.onStreamsState(KafkaStreams.State.REBALANCING);
        status.onRestoreStart(windows, "window-aggregates", 0, 10_000);
        status.onRestoreStart(steps, "steps", 100, 2_100);
        assertThat(status.phase()).isEqualTo(Phase.RESTORING);
        assertThat(status.restoreRecordsRemaining()).isEqualTo(12_000);
        assertThat(registry.scrape()).contains("tailstream_aggregator_state{state=\"restoring\"} 1.0")
                .contains("tailstream_aggregator_restore_records_remaining 12000.0");
        for (int i = 0; i < 10; i++) { // a batch of 1,000 a second
            clock.addAndGet(1000);
            status.onBatchRestored(windows, "window-aggregates", i * 1000L + 999, 1000);
        }
        status.onRestoreEnd(windows, "window-aggregates", 10_000);
        // between two tasks' restorations nothing restores for a moment: still restoring until Streams runs
        assertThat(status.phase()).isEqualTo(Phase.RESTORING);
        status.onBatchRestored(steps, "steps", 2_099, 2_000);
        status.onRestoreEnd(steps, "steps", 2_000);
        status.onStreamsState(KafkaStreams.State.RUNNING);
        assertThat(status.phase()).isEqualTo(Phase.RUNNING);
        assertThat(status.restoreRecordsRemaining()).isZero();
        assertThat(status.restoredRecords()).isEqualTo(12_000);
        assertThat(lines).containsExactly(
                "starting aggregator app",
                "waiting for partition assignment",
                "restoring state stores from their changelogs",
                "restoring state store window-aggregates (changelog app-window-aggregates-changelog-0): 10,000 records",
                "restoring state store steps (changelog app-steps-changelog-1): 2,000 records",
                "restoring state stores: 3,000 of 12,000 records restored, 9,000 to go (steps, window-aggregates)",
                "restoring state stores: 6,000 of 12,000 records restored, 6,000 to go (steps, window-aggregates)",
                "restoring state stores: 9,000 of 12,000 records restored, 3,000 to go (steps, window-aggregates)",
                "state stores restored: 12,000 records in 10.0 s",
                "running, reading its input backlog");
        assertThat(registry.scrape()).contains("tailstream_aggregator_state{state=\"running\"} 1.0")
                .contains("tailstream_aggregator_state{state=\"restoring\"} 0.0");
    }

    @Test
    void freshStart_withNothingToRestore_saysSo() {
        status.onStreamsState(KafkaStreams.State.REBALANCING);
        status.onRestoreStart(new TopicPartition("app-steps-changelog", 0), "steps", 0, 0);
        status.onRestoreEnd(new TopicPartition("app-steps-changelog", 0), "steps", 0);
        status.onStreamsState(KafkaStreams.State.RUNNING);
        status.onStreamsState(KafkaStreams.State.PENDING_SHUTDOWN);
        assertThat(lines).containsExactly("waiting for partition assignment",
                "restoring state stores from their changelogs", "state stores ready: nothing to restore",
                "running, reading its input backlog", "stopped");
        assertThat(status.phase()).isEqualTo(Phase.STOPPED);
    }
}
