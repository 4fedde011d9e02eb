package io.tailstream.reporter.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tailstream.schemas.Topics;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lag the archiver's status tells, as the consumer learns and forgets the partitions' lags. */
class PartitionProgressTest {

    private static final TopicPartition P0 = new TopicPartition(Topics.SAMPLES, 0);
    private static final TopicPartition P1 = new TopicPartition(Topics.SAMPLES, 1);

    /** A consumer that, like the real one after an assignment, knows no lag for some partitions until it fetches. */
    private static final class ForgetfulConsumer extends MockConsumer<byte[], byte[]> {
        final Set<TopicPartition> unknown = new HashSet<>();

        ForgetfulConsumer() {
            super("earliest");
        }

        @Override
        public synchronized OptionalLong currentLag(TopicPartition tp) {
            return unknown.contains(tp) ? OptionalLong.empty() : super.currentLag(tp);
        }
    }

    @TempDir
    Path archive;
    private final ForgetfulConsumer consumer = new ForgetfulConsumer();
    private ArchiveWriter writer;
    private PartitionProgress progress;

    @BeforeEach
    void setUp() {
        writer = new ArchiveWriter(archive, 1_000, offsets -> { });
        progress = new PartitionProgress(consumer, writer, p -> { });
        consumer.assign(List.of(P0, P1));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.seek(P0, 10);
        consumer.seek(P1, 20);
        consumer.updateEndOffsets(Map.of(P0, 13L, P1, 25L));
        progress.assigned(Map.of(P0, 10L, P1, 20L));
    }

    @AfterEach
    void tearDown() {
        writer.close();
    }

    private Long samplesLag() {
        progress.publishStatus();
        return progress.status().lagRecords().get(Topics.SAMPLES);
    }

    @Test
    void lag_sumOfTheOwnedPartitions() {
        assertEquals(3 + 5, samplesLag());
    }

    @Test
    void lag_neverKnown_unknown() {
        consumer.unknown.addAll(List.of(P0, P1));

        assertNull(samplesLag());
    }

    @Test
    void lag_forgottenAfterAnAssignment_lastKnownKept() {
        assertEquals(8, samplesLag());

        // a rebalance revokes both partitions and assigns one back; the consumer knows neither lag until it fetches
        progress.released(List.of(P0, P1));
        progress.assigned(Map.of(P1, 20L));
        consumer.unknown.addAll(List.of(P0, P1));

        assertEquals(5, samplesLag(), "P1's last known lag; P0 is no longer owned");

        consumer.unknown.clear();
        consumer.updateEndOffsets(Map.of(P1, 30L));
        assertEquals(10, samplesLag(), "the next fetch's lag replaces the kept one");
    }

    @Test
    void lag_ofAPartitionNotAssignedBackByTheLastRebalance_notKept() {
        assertEquals(8, samplesLag());

        progress.released(List.of(P0, P1));
        progress.assigned(Map.of());
        progress.released(List.of());
        progress.assigned(Map.of(P0, 10L, P1, 20L));
        consumer.unknown.addAll(List.of(P0, P1));

        assertNull(samplesLag(), "lags from before another owner had the partitions are stale");
    }
}
