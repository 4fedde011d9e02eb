package io.tailstream.producer;

import io.tailstream.producer.emit.SpoolSettings;
import java.util.Map;

/**
 * How a run's samples and control events reach Kafka: the cluster, further producer settings, and the spool that
 * holds blocks while the broker is slow or away. Built with {@link #to(String)} and validated by
 * {@link Builder#build()}, whose messages name the bad setting (never a Kafka setting's value, which may be a
 * credential):
 *
 * <pre>{@code
 * KafkaEmission emission = KafkaEmission.to("broker:9092").kafkaConfig(security).spool(SpoolSettings.in(dir)).build();
 * RunResult result = BenchmarkRunner.run(plan, emission, console, stop::attach);
 * }</pre>
 *
 * <p>Immutable and thread safe; a {@link Builder} is not thread safe.
 */
public final class KafkaEmission {

    private final String bootstrapServers;
    private final Map<String, Object> kafkaConfig;
    private final SpoolSettings spool;

    private KafkaEmission(Builder b) {
        this.bootstrapServers = b.bootstrapServers;
        this.kafkaConfig = Map.copyOf(b.kafkaConfig);
        this.spool = b.spool;
    }

    /** Emission to the Kafka cluster at {@code bootstrapServers} ({@code host:port[,host:port...]}). */
    public static Builder to(String bootstrapServers) {
        return new Builder(bootstrapServers);
    }

    /**
     * {@code host-pid}: the producer id a run emitted to Kafka goes under, unique per process on a machine, readable
     * in reports; its spool file is {@code spool-<producer id>.bin}.
     */
    public static String defaultProducerId() {
        return ClientEnvironment.producerId();
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** Further Kafka producer settings; empty for none. */
    Map<String, Object> kafkaConfig() {
        return kafkaConfig;
    }

    /** The spool, or null for none. */
    SpoolSettings spool() {
        return spool;
    }

    /** Collects a {@link KafkaEmission}'s settings; {@link #build()} checks them. */
    public static final class Builder {

        private final String bootstrapServers;
        private Map<String, Object> kafkaConfig = Map.of();
        private SpoolSettings spool;

        private Builder(String bootstrapServers) {
            this.bootstrapServers = bootstrapServers;
        }

        /**
         * Further Kafka producer settings (security, timeouts); they cannot turn idempotence or acks=all off.
         * Default: none.
         */
        public Builder kafkaConfig(Map<String, Object> config) {
            this.kafkaConfig = config;
            return this;
        }

        /**
         * Spools blocks and control events to {@code spool}'s directory while the broker is slow or away. Default
         * (or null): no spool, and a broker that stays away fails the run after Kafka's delivery timeout.
         */
        public Builder spool(SpoolSettings spool) {
            this.spool = spool;
            return this;
        }

        /**
         * The emission these settings describe.
         *
         * @throws IllegalArgumentException when the bootstrap servers are missing or blank, or the Kafka settings are
         *                                  null or hold a setting without a name or value (naming the setting)
         */
        public KafkaEmission build() {
            if (bootstrapServers == null || bootstrapServers.isBlank()) {
                throw new IllegalArgumentException("bootstrap servers must be host:port[,host:port...], was "
                        + (bootstrapServers == null ? "null" : "'" + bootstrapServers + "'"));
            }
            if (kafkaConfig == null) {
                throw new IllegalArgumentException("kafkaConfig must be a map of Kafka producer settings (empty for"
                        + " none), was null");
            }
            kafkaConfig.forEach((key, value) -> {
                if (key == null) {
                    throw new IllegalArgumentException("kafkaConfig has a setting without a name");
                }
                if (value == null) {
                    throw new IllegalArgumentException("kafkaConfig setting '" + key + "' has no value");
                }
            });
            return new KafkaEmission(this);
        }
    }
}
