package io.tailstream.infra.kafka;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A producer for putting a backlog on a broker so that exactly what was sent lands, as the tests and benchmarks that
 * pre-fill topics need: idempotent, {@code acks=all}, zstd level 1, batches of up to 256 KiB after 5 ms, and one
 * request in flight per connection. One in flight because a partition's first batch meeting a broker whose metadata
 * lags the topic's creation otherwise fails the batches behind it with out-of-order sequences, which the client
 * retries until its delivery timeout (seen on a loaded machine: records lost, or a send stuck for minutes). Wait for
 * every send's acknowledgement before counting a record as sent.
 */
public final class BacklogProducer {

    private BacklogProducer() {}

    /** The settings, to adjust before creating a producer. */
    public static Properties settings(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        p.put(ProducerConfig.COMPRESSION_ZSTD_LEVEL_CONFIG, 1);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return p;
    }

    /** A producer of byte-array keys and values with these settings. */
    public static KafkaProducer<byte[], byte[]> create(String bootstrapServers) {
        return new KafkaProducer<>(settings(bootstrapServers), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Waits for every acknowledgement in {@code acks}, then empties the list.
     *
     * @throws IllegalStateException if a send failed (with its cause) or the wait was interrupted (the thread's
     *                               interrupt flag set again)
     */
    public static void awaitAcks(List<? extends Future<?>> acks) {
        try {
            for (Future<?> ack : acks) {
                ack.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + acks.size() + " acknowledgements", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a record did not land: " + e.getMessage(), e);
        }
        acks.clear();
    }
}
