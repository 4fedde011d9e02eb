package io.tailstream.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A real broker goes away under a real Kafka producer and comes back: the client's warnings (one per reconnect
 * attempt) reach stderr through the command's log binding as one line when they start and one with their count
 * once they stopped.
 */
class KafkaOutageLogIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void brokerStoppedAndRestarted_clientWarningsAreTwoLines() throws Exception {
        LogSummary summary = ((ConsoleLoggerFactory) LoggerFactory.getILoggerFactory()).summary();
        EmbeddedKafka broker = EmbeddedKafka.start(dir.resolve("kafka"), false);
        int brokerPort = broker.brokerPort();
        int controllerPort = broker.controllerPort();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "outage-test");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        // a send during the outage may have to wait for the partition's metadata until the broker is back
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000");
        // with no broker answering, Kafka 4's default "rebootstrap" drops the cached metadata; the producer then
        // sometimes never learned the topic again from the restarted broker (seen: 1 run in 4 under load)
        p.put("metadata.recovery.strategy", "none");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("outage", 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>("outage", new byte[] {1})).get(60, TimeUnit.SECONDS);
            // warnings of whatever ran before (the broker's start-up) are summarized and done with
            await(() -> !summary.bursting(), 60, "earlier warnings to end");
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                broker.close();
                Future<RecordMetadata> during = producer.send(new ProducerRecord<>("outage", new byte[] {2}));
                await(() -> text(captured).contains("WARN Kafka client: "), 60, "the first client warning");
                broker = EmbeddedKafka.start(dir.resolve("kafka"), false, brokerPort, controllerPort);
                // the restarted broker is the same cluster, on the same address, and knows the topic
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers()))) {
                    assertThat(admin.describeTopics(List.of("outage")).allTopicNames().get(60, TimeUnit.SECONDS))
                            .as("topics of the broker restarted on %s", broker.bootstrapServers())
                            .containsKey("outage");
                }
                assertThat(broker.brokerPort()).isEqualTo(brokerPort);
                during.get(70, TimeUnit.SECONDS);
                await(() -> text(captured).contains(" warnings in "), 60, "the count once the warnings stopped");
            } finally {
                System.setErr(stderr);
                stderr.print(text(captured));
            }
        } finally {
            broker.close();
        }
        String text = text(captured);
        List<String> client = text.lines().filter(l -> l.contains("Kafka client")).toList();
        // a line when they start, one with the count when they stop (the restarted broker's own clients may add a
        // burst of their own), not one per reconnect attempt
        assertThat(client).hasSizeBetween(2, 4);
        assertThat(client.get(0)).contains("WARN Kafka client: ").contains("(repeats are counted until they stop)");
        assertThat(client).anySatisfy(l -> assertThat(l).containsPattern("WARN Kafka client: \\d+ warnings in"
                + " [\\d.]+ s, none for 5 s now \\(last: .*\\)"));
        assertThat(text).doesNotContain("\tat ");
    }

    private static String text(ByteArrayOutputStream captured) {
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static void await(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within " + seconds + " s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
