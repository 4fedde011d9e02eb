package io.tailstream.schemas;

import java.util.Map;
import java.util.Objects;

/**
 * One Kafka topic of the contract: its name, the partition count it is created with, and the topic-level
 * configuration (retention, compaction, ...) that provisioning applies whether the broker is the in-process one
 * or an external cluster.
 *
 * @param name       topic name
 * @param partitions partition count used when the topic does not exist yet
 * @param configs    topic configs (e.g. {@code cleanup.policy=compact}); immutable
 */
public record TopicSpec(String name, int partitions, Map<String, String> configs) {

    public TopicSpec {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("topic name must not be blank");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("topic " + name + ": partitions must be >= 1, was " + partitions);
        }
        configs = Map.copyOf(configs);
    }

    /** The same topic with another partition count. */
    public TopicSpec withPartitions(int newPartitions) {
        return new TopicSpec(name, newPartitions, configs);
    }
}
