package io.tailstream.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.TopicSpec;
import io.tailstream.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaIntegrationTest {

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void provision_createsEveryTopicWithItsPartitionsAndConfigs() throws Exception {
        List<TopicSpec> specs = Topics.all(3);
        TopicProvisioner.ensure(kafka.bootstrapServers(), specs);
        // a second call on existing topics is a no-op, not an error
        TopicProvisioner.ensure(kafka.bootstrapServers(), specs);

        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            Set<String> names = admin.listTopics().names().get();
            assertThat(names).containsAll(specs.stream().map(TopicSpec::name).toList());
            var samples = admin.describeTopics(List.of(Topics.SAMPLES)).allTopicNames().get().get(Topics.SAMPLES);
            assertThat(samples.partitions()).hasSize(3);
            var control = admin.describeTopics(List.of(Topics.CONTROL)).allTopicNames().get().get(Topics.CONTROL);
            assertThat(control.partitions()).hasSize(1);
            ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, Topics.SAMPLES);
            Config cfg = admin.describeConfigs(List.of(res)).all().get().get(res);
            TopicSpec spec = specs.get(0);
            for (Map.Entry<String, String> e : spec.configs().entrySet()) {
                assertThat(cfg.get(e.getKey()).value()).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void transactionalProducer_commitsAndReadCommittedConsumerSeesEveryRecord() {
        String topic = "embedded-kafka-tx-test";
        TopicProvisioner.ensure(kafka.bootstrapServers(), List.of(new TopicSpec(topic, 2, Map.of())));
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-test");
        pp.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        int n = 500;
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(pp, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, ("k" + i).getBytes(StandardCharsets.UTF_8),
                        ("v" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.commitTransaction();
        }
        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, "tx-test-reader");
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            while (values.size() < n && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(values).hasSize(n).doesNotHaveDuplicates();
    }
}
