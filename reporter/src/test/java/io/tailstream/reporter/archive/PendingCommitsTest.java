package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.Topics;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PendingCommitsTest {

    private static final TopicPartition SAMPLES = new TopicPartition(Topics.SAMPLES, 0);
    private static final TopicPartition WINDOWS = new TopicPartition(Topics.WINDOWS, 0);

    @Test
    void flushes_becomeCommittableInOrder_onceTheirEncoderTasksAreDone() {
        PendingCommits pending = new PendingCommits();
        pending.add(1, Map.of(SAMPLES, offset(10)));
        pending.add(2, Map.of(SAMPLES, offset(20), WINDOWS, offset(5)));
        pending.add(2, Map.of(WINDOWS, offset(7)));
        pending.add(3, Map.of(SAMPLES, offset(30)));

        assertThat(pending.takeCommittable(0)).isEmpty();
        assertThat(pending.takeCommittable(1)).isEqualTo(Map.of(SAMPLES, offset(10)));
        // a partition's later offset replaces its earlier one
        assertThat(pending.takeCommittable(2)).isEqualTo(Map.of(SAMPLES, offset(20), WINDOWS, offset(7)));
        assertThat(pending.takeCommittable(2)).isEmpty();
        assertThat(pending.takeCommittable(3)).isEqualTo(Map.of(SAMPLES, offset(30)));
    }

    @Test
    void drop_forgetsThePartitionsOffsets_keepsTheOthers() {
        PendingCommits pending = new PendingCommits();
        pending.add(1, Map.of(SAMPLES, offset(10), WINDOWS, offset(5)));
        pending.add(2, Map.of(SAMPLES, offset(20)));

        pending.drop(List.of(SAMPLES));

        assertThat(pending.takeCommittable(2)).isEqualTo(Map.of(WINDOWS, offset(5)));
    }

    private static OffsetAndMetadata offset(long offset) {
        return new OffsetAndMetadata(offset);
    }
}
