package io.tailstream.producer.emit;

import io.tailstream.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Blocks to {@link Topics#SAMPLES} and events to {@link Topics#CONTROL} through two idempotent, acks=all, zstd
 * {@link KafkaProducer}s: blocks linger {@value #SAMPLES_LINGER_MS} ms to fill large batches (the Kafka client's and
 * the broker's cost is per produce request: at 10 ms they took 2.6 times the CPU per sample, docs/benchmarks.md),
 * while control events, sent one at a time and each waiting for the previous acknowledgement, go out at once on a
 * producer of their own. Ordering across the two is not needed: a step's end waits for every block's
 * acknowledgement ({@link #flush()}) before its control events are sent. Thread safe (Kafka producers are).
 */
final class KafkaTransport implements BlockTransport {

    /** {@code max.block.ms} of a sink without a spool: a send may wait this long for metadata or buffer space. */
    static final Duration MAX_BLOCK = Duration.ofSeconds(30);
    /** How long the constructor keeps asking for the samples topic's partitions when {@code max.block.ms} is short. */
    static final Duration STARTUP_METADATA_WAIT = Duration.ofSeconds(30);

    /** {@code linger.ms} of the sample blocks' producer unless the caller's configuration sets it. */
    static final int SAMPLES_LINGER_MS = 100;

    /** Prefix of a Kafka producer's I/O thread's name ({@code org.apache.kafka.clients.producer.KafkaProducer}). */
    static final String SENDER_THREAD_PREFIX = "kafka-producer-network-thread | ";

    private final java.util.Set<String> threadNames;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaProducer<byte[], byte[]> controlProducer;
    private final String bootstrapServers;
    private final Duration partitionsWait;
    // 0 while unknown (a transport that started while Kafka did not answer)
    private volatile int partitions;

    /**
     * @param extraConfig further producer settings (security, timeouts); they cannot turn idempotence or acks=all off
     */
    public KafkaTransport(String bootstrapServers, String clientId, Map<String, Object> extraConfig) {
        this(bootstrapServers, clientId, extraConfig, MAX_BLOCK);
    }

    /**
     * @param extraConfig further producer settings (security, timeouts); they cannot turn idempotence or acks=all off
     * @param maxBlock    {@code max.block.ms} unless {@code extraConfig} sets it: how long {@link #sendBlock} and
     *                    {@link #sendControlAsync} may block the caller while the producer has no metadata for the
     *                    topic (e.g. the broker is away and the client went back to its bootstrap servers) before the
     *                    send fails with a retriable {@link org.apache.kafka.common.errors.TimeoutException}
     */
    public KafkaTransport(String bootstrapServers, String clientId, Map<String, Object> extraConfig,
                          Duration maxBlock) {
        this(bootstrapServers, clientId, extraConfig, maxBlock, null);
    }

    /**
     * A transport that may start while Kafka does not answer (a spooling sink's): the samples topic's partition
     * count is then asked for again when it is first needed (a step's end), for at most {@code partitionsWait}.
     *
     * @param partitionsWait null: ask at construction for {@link #STARTUP_METADATA_WAIT} and fail if Kafka does not
     *                       answer
     */
    public KafkaTransport(String bootstrapServers, String clientId, Map<String, Object> extraConfig,
                          Duration maxBlock, Duration partitionsWait) {
        this.bootstrapServers = bootstrapServers;
        this.partitionsWait = partitionsWait;
        Map<String, Object> cfg = new HashMap<>(extraConfig == null ? Map.of() : extraConfig);
        cfg.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        cfg.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        cfg.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        cfg.put(ProducerConfig.ACKS_CONFIG, "all");
        cfg.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        // level 1 rather than 3: compression runs on the emitter thread, and zstd's fastest level costs least for
        // blocks that are varints already; the emission benchmark's CPU split (docs/benchmarks.md) put
        // compression at ~30% of emission's CPU, level 1 below level 3 in one set, within the machine's noise in
        // the next
        cfg.putIfAbsent(ProducerConfig.COMPRESSION_ZSTD_LEVEL_CONFIG, 1);
        cfg.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlock.toMillis());
        cfg.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        cfg.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        Map<String, Object> control = new HashMap<>(cfg);
        control.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-control");
        // Kafka names each producer's I/O thread after its client id
        this.threadNames = java.util.Set.of(SENDER_THREAD_PREFIX + clientId, SENDER_THREAD_PREFIX + clientId
                + "-control");
        control.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        cfg.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, SAMPLES_LINGER_MS);
        cfg.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        KafkaProducer<byte[], byte[]> samples = new KafkaProducer<>(cfg);
        int known;
        try {
            known = partitionsWait == null ? samplePartitions(samples, STARTUP_METADATA_WAIT)
                    : samplePartitionsIfKnown(samples);
        } catch (RuntimeException e) {
            samples.close(Duration.ZERO);
            throw new EmitException("cannot read the partitions of topic " + Topics.SAMPLES + " at "
                    + bootstrapServers + ": " + e.getMessage(), e);
        }
        if (known == 0 && !cfg.containsKey(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)) {
            // Kafka is away, and its topics may be created while this producer sends. A partition's first batch
            // refused because the new partition is not yet hosted (NOT_LEADER_OR_FOLLOWER) while a later batch,
            // in flight beside it, is accepted as the producer's first there, leaves the first retried as
            // OUT_OF_ORDER_SEQUENCE_NUMBER until the delivery timeout (2 min; seen when the topics were created
            // by the run as the broker came up). One request in flight keeps the first batch first.
            samples.close(Duration.ZERO);
            cfg.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
            samples = new KafkaProducer<>(cfg);
        }
        this.producer = samples;
        this.partitions = known;
        try {
            this.controlProducer = new KafkaProducer<>(control);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        if (known > 0) {
            // The control producer learns its topic now, while nothing else runs: otherwise its first event waits
            // for metadata within max.block.ms (1 s under a spool), which a broker beside a load that has just
            // begun may miss, and the event is retried with a warning on a run where nothing is wrong.
            try {
                partitions(controlProducer, Topics.CONTROL, STARTUP_METADATA_WAIT);
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                // the first control event asks again, and a spooling transport retries it
            }
        }
    }

    /** The partition count if Kafka answers within one {@code max.block.ms}, else 0 (unknown). */
    private static int samplePartitionsIfKnown(KafkaProducer<byte[], byte[]> producer) {
        try {
            return producer.partitionsFor(Topics.SAMPLES).size();
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            return 0;
        }
    }

    /**
     * The samples topic's partition count, asked again while {@code partitionsFor} times out within
     * {@link #STARTUP_METADATA_WAIT}: a short {@code max.block.ms} (the spooling sink's) must not make a broker that is
     * merely slow to answer the first metadata request fail the run.
     */
    private static int samplePartitions(KafkaProducer<byte[], byte[]> producer, Duration wait) {
        return partitions(producer, Topics.SAMPLES, wait);
    }

    /** A topic's partition count, asked again while {@code partitionsFor} times out within {@code wait}. */
    private static int partitions(KafkaProducer<byte[], byte[]> producer, String topic, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                return producer.partitionsFor(topic).size();
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
        }
    }

    @Override
    public int samplePartitions() {
        int known = partitions;
        if (known > 0) {
            return known;
        }
        synchronized (this) {
            if (partitions == 0) {
                try {
                    partitions = samplePartitions(producer, partitionsWait);
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    throw new EmitException("Kafka at " + bootstrapServers + " did not tell the partitions of topic "
                            + Topics.SAMPLES + " within " + partitionsWait.toSeconds() + " s: is it reachable, does"
                            + " the topic exist?", e);
                }
            }
            return partitions;
        }
    }

    @Override
    public void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
        producer.send(new ProducerRecord<>(Topics.SAMPLES, partition, key, block),
                (metadata, error) -> ack.done(error));
    }

    @Override
    public void sendControl(byte[] key, byte[] json) {
        try {
            controlProducer.send(new ProducerRecord<>(Topics.CONTROL, key, json)).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmitException("interrupted while sending a control event", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new EmitException("control event not acknowledged by Kafka: " + e.getMessage(), e);
        }
    }

    @Override
    public void sendControlAsync(byte[] key, byte[] json, Ack ack) {
        controlProducer.send(new ProducerRecord<>(Topics.CONTROL, key, json), (metadata, error) -> ack.done(error));
    }

    @Override
    public java.util.Set<String> threadNames() {
        return threadNames;
    }

    @Override
    public void flush() {
        producer.flush();
        controlProducer.flush();
    }

    @Override
    public void close() {
        try {
            producer.close(Duration.ofSeconds(30));
        } finally {
            controlProducer.close(Duration.ofSeconds(30));
        }
    }
}
