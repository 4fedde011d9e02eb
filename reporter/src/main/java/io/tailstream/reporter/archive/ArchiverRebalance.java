package io.tailstream.reporter.archive;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties the archive writer's buffers to the group's assignment. A revoked partition is flushed and committed before
 * anyone else gets it; a lost one is dropped uncommitted; an assigned one starts at the committed offset, told
 * which incarnation of its topic it is.
 *
 * <p>Runs on the archiving thread, inside poll; {@link #dropOnRevocation()} may be called from any thread.
 */
final class ArchiverRebalance implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiverRebalance.class);

    private final Consumer<?, ?> consumer;
    private final ArchiveWriter writer;
    private final IncarnationLookup incarnations;
    private final PartitionProgress progress;
    private boolean awaitingAssignment = true;
    /**
     * Set by {@link Archiver#close()} before the consumer leaves the group: revoked partitions are dropped, not
     * flushed.
     */
    private volatile boolean releasing;

    ArchiverRebalance(Consumer<?, ?> consumer, ArchiveWriter writer, IncarnationLookup incarnations,
                      PartitionProgress progress) {
        this.consumer = consumer;
        this.writer = writer;
        this.incarnations = incarnations;
        this.progress = progress;
    }

    /** True between a revocation (or the start) and the assignment that ends the rebalance. */
    boolean awaitingAssignment() {
        return awaitingAssignment;
    }

    /** From now on revoked partitions are dropped, not flushed: the consumer is leaving the group. */
    void dropOnRevocation() {
        releasing = true;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        awaitingAssignment = true;
        if (partitions.isEmpty()) {
            return;
        }
        if (releasing) {
            // close(): the loop flushed what it could; whatever is left (a failed loop) stays uncommitted
            writer.removePartitions(partitions);
        } else {
            // before anyone else gets them: write and commit what is buffered, so the next owner starts there
            writer.flush(partitions);
            writer.removePartitions(partitions);
        }
        progress.released(partitions);
        LOG.info("partitions revoked: {}", names(partitions));
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        awaitingAssignment = true;
        // already someone else's: nothing may be committed, and the files of the buffer are not written
        writer.removePartitions(partitions);
        progress.released(partitions);
        LOG.warn("partitions lost (this archiver left the group's generation): {}; their next owner archives"
                + " them from the committed offsets", names(partitions));
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        awaitingAssignment = false;
        progress.moved();
        if (partitions.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> starts = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        for (TopicPartition tp : partitions) {
            starts.put(tp, consumer.position(tp)); // the committed offset, or the beginning
        }
        writer.addPartitions(starts, incarnations.of(partitions));
        progress.assigned(starts);
        LOG.info("partitions assigned: {}", names(partitions));
    }

    private static String names(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::toString).sorted().collect(Collectors.joining(", "));
    }
}
