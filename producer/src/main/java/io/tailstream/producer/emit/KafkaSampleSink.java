package io.tailstream.producer.emit;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Emits a run's samples and control events to Kafka: a {@link BlockEmitter} driven by one daemon thread. Thread
 * safe.
 */
public final class KafkaSampleSink implements SampleSink {

    private static final Logger log = LoggerFactory.getLogger(KafkaSampleSink.class);

    private final String runId;
    private final String producerId;
    private final BlockTransport transport;
    private final BlockEmitter emitter;
    private final Thread thread;
    private volatile boolean closing;

    /** A sink over any transport (tests pass an in-memory one). */
    public KafkaSampleSink(String runId, String producerId, BlockTransport transport, Clock clock,
                           EmitterSettings settings) {
        this.runId = runId;
        this.producerId = producerId;
        this.transport = transport;
        this.emitter = new BlockEmitter(runId, producerId, transport, clock, settings);
        this.thread = new Thread(this::loop, "tailstream-emitter-" + producerId);
        Thread emitterThread = thread;
        emitter.onWakeUp(() -> LockSupport.unpark(emitterThread));
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** A sink to the Kafka cluster at {@code bootstrapServers}; the topics must exist. */
    public static KafkaSampleSink create(String bootstrapServers, String runId, String producerId,
                                         Map<String, Object> extraKafkaConfig, EmitterSettings settings) {
        KafkaTransport transport = new KafkaTransport(bootstrapServers, "tailstream-producer-" + producerId,
                extraKafkaConfig);
        return new KafkaSampleSink(runId, producerId, transport, Clock.system(), settings);
    }

    /**
     * A sink to the Kafka cluster at {@code bootstrapServers} that spools blocks to disk while the broker is slow or
     * away ({@link SpoolingTransport}); {@code spool == null} for none.
     */
    public static KafkaSampleSink create(String bootstrapServers, String runId, String producerId,
                                         Map<String, Object> extraKafkaConfig, EmitterSettings settings,
                                         SpoolSettings spool) {
        if (spool == null) {
            return create(bootstrapServers, runId, producerId, extraKafkaConfig, settings);
        }
        // may start while Kafka is away: blocks and events are spooled until it answers
        KafkaTransport kafka = new KafkaTransport(bootstrapServers, "tailstream-producer-" + producerId,
                outageProof(extraKafkaConfig), SpoolingTransport.KAFKA_MAX_BLOCK, spool.drainTimeout());
        SpoolingTransport transport;
        try {
            transport = new SpoolingTransport(kafka, spool, producerId);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        return new KafkaSampleSink(runId, producerId, transport, Clock.system(), settings);
    }

    /**
     * The producer settings under a spool, unless the caller's configuration sets them: what lets a producer live
     * through a broker outage of any length.
     * <ul>
     *   <li>{@code delivery.timeout.ms} without limit. A batch the broker wrote but did not acknowledge before it
     *       went away, once expired by the client, leaves the idempotent producer's sequence numbers behind the
     *       broker's: every later batch of the partition was refused as out of order (seen in a broker restart
     *       test after 120 s of outage: the spool never drained). Unexpired, the batch is retried when the broker
     *       is back and recognised as a duplicate. The spool bounds what waits this way
     *       ({@link SpoolSettings#maxInflightBytes()}) and its drain timeout bounds the run's end.</li>
     *   <li>{@code metadata.recovery.strategy=none}. With Kafka 4's default {@code rebootstrap}, a client that found
     *       no broker answering dropped its metadata and sometimes did not learn the topics again from the broker
     *       restarted at the same address, until its batches expired (seen in 2 of 7 restarts of a test broker).
     *       With {@code none} it keeps asking the brokers it knows. Set it to {@code rebootstrap} in
     *       {@code --kafka-config} for a cluster whose brokers come back at other addresses.</li>
     * </ul>
     */
    static Map<String, Object> outageProof(Map<String, Object> extraKafkaConfig) {
        Map<String, Object> cfg = new java.util.HashMap<>(extraKafkaConfig == null ? Map.of() : extraKafkaConfig);
        cfg.putIfAbsent(org.apache.kafka.clients.producer.ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                Integer.MAX_VALUE);
        cfg.putIfAbsent(org.apache.kafka.clients.CommonClientConfigs.METADATA_RECOVERY_STRATEGY_CONFIG, "none");
        return cfg;
    }

    /** What the spool did, or null when the sink does not spool. */
    @Override
    public SpoolingTransport.SpoolStats spoolStats() {
        return transport instanceof SpoolingTransport s ? s.stats() : null;
    }

    @Override
    public SpoolingTransport.SpoolNow spoolNow() {
        return transport instanceof SpoolingTransport s ? s.now() : null;
    }

    /** What the spool holds and Kafka's last error ({@link SpoolingTransport#describe()}), for messages. */
    public String spoolState() {
        return transport instanceof SpoolingTransport s ? s.describe() : "no spool";
    }

    @Override
    public long takeSpoolHighWaterBytes() {
        return transport instanceof SpoolingTransport s ? s.takePeriodHighWaterBytes() : 0;
    }

    private void loop() {
        // keep working until closed and nothing is left: close() waits for this thread
        while (true) {
            boolean worked;
            try {
                worked = emitter.runOnce();
            } catch (RuntimeException e) {
                log.error("sample emitter of run {} failed: {}", runId, e.toString());
                emitter.fail(e);
                return;
            }
            if (!worked) {
                if (closing) {
                    return;
                }
                // until the next sweep or heartbeat (full blocks wait for it: at most a sweep interval, 25 ms, less
                // than the Kafka producer lingers anyway), woken early by step ends and waiting workers: every wake-up
                // costs a context switch (on a virtual machine a timer exit too), and an idle emitter waking 1,000
                // times a second cost as much CPU as sealing and sending the blocks (docs/benchmarks.md)
                LockSupport.parkNanos(emitter.nanosUntilDue());
            }
        }
    }

    @Override
    public boolean ownsThread(String threadName) {
        return threadName.equals(thread.getName()) || transport.threadNames().contains(threadName);
    }

    @Override
    public String producerId() {
        return producerId;
    }

    @Override
    public void publish(ControlEvent event) {
        transport.sendControl(event.runId().getBytes(StandardCharsets.UTF_8), Json.write(event));
    }

    @Override
    public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
        return emitter.beginStep(stepId, ops, openLoop);
    }

    @Override
    public long blocksSent() {
        return emitter.blocksSent();
    }

    @Override
    public long samplesSent() {
        return emitter.samplesAcked();
    }

    /** Blocks Kafka has acknowledged (or the spool has taken over). */
    public long blocksAcked() {
        return emitter.blocksAcked();
    }

    /** Blocks handed over by workers and not yet sent. */
    public int backlog() {
        return emitter.backlog();
    }

    /** Blocks handed over and not yet sent, plus blocks sent (or spooled) and not yet acknowledged. */
    @Override
    public long backlogBlocks() {
        return emitter.backlog() + Math.max(0, emitter.blocksSent() - emitter.blocksAcked());
    }

    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            transport.flush();
        } finally {
            transport.close();
        }
    }

    /** Block buffers the emitter has created so far (tests: pool growth is not per-sample allocation). */
    int encodersCreated() {
        return emitter.encodersCreated();
    }
}
