package io.tailstream.cli.options;

import io.tailstream.infra.kafka.TopicProvisioner;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Option;

/** The Kafka cluster to talk to. */
public final class KafkaOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    public String bootstrapServers;

    /**
     * Kafka Streams settings that give its internal topics (changelogs, repartition topics) the replication of
     * tailstream's own topics, added to {@code overrides} unless they set them already.
     */
    public static Map<String, String> withStreamsReplication(Map<String, String> overrides,
                                                             TopicProvisioner.Replication replication) {
        Map<String, String> out = new HashMap<>(overrides);
        out.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, String.valueOf(replication.factor()));
        out.putIfAbsent(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                String.valueOf(replication.minInSync()));
        return out;
    }
}
