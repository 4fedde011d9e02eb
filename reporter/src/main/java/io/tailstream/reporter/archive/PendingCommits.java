package io.tailstream.reporter.archive;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Offsets of flushes whose samples files the encoder thread may still be publishing, in flush order. A flush's
 * offsets may be committed once every encoder task handed over before it ended is done: then each file of its
 * ranges is in place, and so is every file of the ranges before them. Until then a crash leaves files beyond the
 * committed offset, which the partition's next owner rewrites at the same boundaries.
 *
 * <p>Not thread safe: the archiving thread's.
 */
final class PendingCommits {

    /**
     * @param lastTask the encoder task that publishes the flush's last samples file (or any earlier task)
     * @param offsets  per partition, the offset after the flushed range
     */
    private record Flush(long lastTask, Map<TopicPartition, OffsetAndMetadata> offsets) {}

    private final Deque<Flush> flushes = new ArrayDeque<>();

    /** Queues a flush's offsets, committable once the encoder has done {@code lastTask} and every task before it. */
    void add(long lastTask, Map<TopicPartition, OffsetAndMetadata> offsets) {
        flushes.addLast(new Flush(lastTask, new LinkedHashMap<>(offsets)));
    }

    /**
     * Removes the flushes whose files are all in place and returns their offsets, a later flush's offset of a
     * partition replacing an earlier one's; empty if none is.
     *
     * @param tasksDone the encoder's last task done ({@link SampleRowGroupEncoder#tasksDone()})
     */
    Map<TopicPartition, OffsetAndMetadata> takeCommittable(long tasksDone) {
        Map<TopicPartition, OffsetAndMetadata> out = new LinkedHashMap<>();
        while (!flushes.isEmpty() && flushes.peekFirst().lastTask() <= tasksDone) {
            out.putAll(flushes.pollFirst().offsets());
        }
        return out;
    }

    /** Forgets the offsets of partitions this writer may no longer commit (lost in a rebalance, or closed). */
    void drop(Collection<TopicPartition> partitions) {
        flushes.forEach(f -> f.offsets().keySet().removeAll(partitions));
        flushes.removeIf(f -> f.offsets().isEmpty());
    }
}
