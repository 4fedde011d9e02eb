package io.tailstream.cli.options;

import io.tailstream.infra.kafka.TopicProvisioner;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Option;

/**
 * The Kafka cluster to talk to, and the client settings every producer, consumer, admin client and Kafka Streams
 * instance of a command gets ({@code --kafka-config}: security settings, timeouts). The file's values are never
 * printed: they may be credentials ({@code sasl.jaas.config}, {@code ssl.*.password}).
 */
public final class KafkaOptions {

    /**
     * Keys tailstream sets itself, on which its guarantees rest (idempotent {@code acks=all} producers,
     * exactly-once Streams, consumers that commit only what is archived) or that have an option of their own.
     */
    static final Set<String> OWN_KEYS = Set.of("bootstrap.servers", "acks", "enable.idempotence",
            "transactional.id", "application.id", "processing.guarantee", "group.id", "enable.auto.commit",
            "isolation.level", "key.serializer", "value.serializer", "key.deserializer", "value.deserializer");

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    public String bootstrapServers;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.mechanism, sasl.jaas.config, ssl.*,"
                    + " timeouts) for every producer, consumer, admin client and Kafka Streams instance. Values are"
                    + " never printed, logged, sent or archived.")
    public Path kafkaConfig;

    private Map<String, String> loaded;

    /**
     * The {@code --kafka-config} file's properties (empty without it).
     *
     * @throws IllegalArgumentException naming the file (and the key) when it cannot be read or sets a key tailstream
     *                                  owns; never with a value in the message
     */
    public synchronized Map<String, String> clientConfig() {
        if (loaded == null) {
            loaded = kafkaConfig == null ? Map.of() : load(kafkaConfig);
        }
        return loaded;
    }

    /** {@link #clientConfig()} typed for Kafka client constructors. */
    public Map<String, Object> clientConfigObjects() {
        return Map.copyOf(clientConfig());
    }

    static Map<String, String> load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--kafka-config " + file + ": no such file");
        } catch (IOException | IllegalArgumentException e) {
            // the message is left out: Properties' own may quote the file's text
            throw new IllegalArgumentException("--kafka-config " + file + ": cannot read it ("
                    + e.getClass().getSimpleName() + ")");
        }
        Map<String, String> out = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            String k = key.trim();
            if (OWN_KEYS.contains(k)) {
                throw new IllegalArgumentException("--kafka-config " + file + ": " + k + " is set by tailstream"
                        + (k.equals("bootstrap.servers") ? "; use --bootstrap-servers" : "") + ": remove it");
            }
            out.put(k, p.getProperty(key).trim());
        }
        return Map.copyOf(out);
    }

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
