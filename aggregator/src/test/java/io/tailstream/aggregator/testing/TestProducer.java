package io.tailstream.aggregator.testing;

import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Encodes blocks the way one producer does: one block sequence per producer, markers included. */
public final class TestProducer {

    private final String runId;
    private final String producerId;
    private final SampleBlockEncoder encoder = new SampleBlockEncoder(SampleBlock.MAX_SAMPLES, false);
    private long nextSeq;

    public TestProducer(String runId, String producerId) {
        this.runId = runId;
        this.producerId = producerId;
    }

    /** An idempotent, acks=all Kafka producer of string keys and block bytes, as the real producer sends. */
    public static KafkaProducer<String, byte[]> kafkaProducer(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    /** The record key of this producer's blocks. */
    public String key() {
        return runId + "/" + producerId;
    }

    public byte[] samples(int stepId, List<String> ops, List<Sample> samples, long sealedAtEpochMicros) {
        encoder.reset();
        for (Sample s : samples) {
            encoder.add(s.startEpochMicros(), s.latencyMicros(), s.intendedStartEpochMicros(), s.opIndex(), s.status(),
                    s.queries(), s.warmup());
        }
        return encoder.seal(runId, producerId, nextSeq++, stepId, sealedAtEpochMicros, ops, 0);
    }

    public byte[] heartbeat(int stepId, List<String> ops, long sealedAtEpochMicros) {
        return SampleBlockEncoder.marker(runId, producerId, nextSeq++, stepId, SampleBlock.FLAG_HEARTBEAT,
                sealedAtEpochMicros, ops);
    }

    public byte[] endOfStep(int stepId, List<String> ops, long sealedAtEpochMicros) {
        return SampleBlockEncoder.marker(runId, producerId, nextSeq++, stepId, SampleBlock.FLAG_END_OF_STEP,
                sealedAtEpochMicros, ops);
    }
}
