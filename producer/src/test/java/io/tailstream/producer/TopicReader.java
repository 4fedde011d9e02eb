package io.tailstream.producer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a whole topic from the beginning, duplicates included: for tests that count what arrived. */
final class TopicReader {

    private TopicReader() {}

    /** Every record of {@code topic}, at least {@code expected} of them if they arrive within 30 s. */
    static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic, long expected) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(pi -> new TopicPartition(topic, pi.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            // everything on the topic, duplicates included (the producer waited for every acknowledgement)
            long onTopic = c.endOffsets(parts).values().stream().mapToLong(Long::longValue).sum();
            expected = Math.max(expected, onTopic);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            // anything beyond the expected count would be a duplicate: one more short poll to catch it
            c.poll(Duration.ofMillis(300)).forEach(out::add);
        }
        return out;
    }
}
