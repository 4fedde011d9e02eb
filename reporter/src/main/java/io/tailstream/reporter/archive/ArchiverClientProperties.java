package io.tailstream.reporter.archive;

import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The properties of the {@link Archiver}'s Kafka clients, made from its {@link ArchiverConfig}: those the archiver
 * must have it sets, those it only prefers a user's properties may override. Stateless.
 */
final class ArchiverClientProperties {

    /** How often the consumer looks for new topics matching the archived topics' pattern. */
    private static final String METADATA_MAX_AGE_MS = "10000";
    /** Bytes a fetch returns at most, over all partitions and per partition (see {@link #consumer}). */
    private static final int FETCH_BYTES = 448 * 1024;
    /** How long the group waits for a silent member before giving its partitions to the others. */
    private static final String SESSION_TIMEOUT_MS = "10000";

    private ArchiverClientProperties() {
    }

    /**
     * The consumer's: a member of the config's group that reads committed records from the earliest offset on and
     * commits by hand.
     */
    static Properties consumer(ArchiverConfig config) {
        Properties p = new Properties();
        p.putAll(config.kafkaProperties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-archiver");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the aggregator writes windows transactionally: never archive an aborted window
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // Fetch responses under half a G1 region of the smallest heaps (1 MiB regions up to 2 GiB of heap): a larger
        // response is a humongous allocation, and each of those starts a garbage collection. A record batch larger
        // than the limits (sample blocks may reach the topic's 8 MB record limit) is still fetched whole, alone.
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(FETCH_BYTES));
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(FETCH_BYTES));
        p.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, METADATA_MAX_AGE_MS);
        // a killed archiver's partitions go to the others after this long (heartbeats come from the consumer's own
        // thread, so long flushes do not count: those are bounded by max.poll.interval.ms)
        if (!"consumer".equalsIgnoreCase(String.valueOf(p.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)))) {
            // the classic protocol's client setting; under group.protocol=consumer the broker decides it
            p.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        }
        return p;
    }

    /** The archiver's Kafka properties an admin client knows (security settings), and the bootstrap servers. */
    static Properties admin(ArchiverConfig config) {
        Properties p = new Properties();
        config.kafkaProperties().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, config.kafkaProperties().getOrDefault(
                ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-archiver") + "-admin");
        return p;
    }
}
