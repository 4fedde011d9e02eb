package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker that admits clients only with SASL (PLAIN) on the listener the stages are given: {@code run},
 * {@code aggregate} (in a process of its own) and {@code archive} with {@code --kafka-config}. Samples flow end to end,
 * and the password is in nothing the stages print, send or archive.
 */
class KafkaConfigIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void saslCluster_stagesWithKafkaConfig_samplesFlowPasswordNowhere() throws Exception {
        String password = "pw-" + UUID.randomUUID();
        Path config = dir.resolve("kafka.properties");
        Files.writeString(config, String.join("\n",
                "security.protocol=SASL_PLAINTEXT",
                "sasl.mechanism=PLAIN",
                "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"tailstream\" password=\"" + password + "\";",
                ""));
        KafkaOptions options = new KafkaOptions();
        options.kafkaConfig = config;
        Map<String, String> clientConfig = options.clientConfig();
        assertThat(clientConfig).containsEntry("security.protocol", "SASL_PLAINTEXT");

        try (EmbeddedKafka kafka = EmbeddedKafka.startWithSaslPlain("tailstream", password)) {
            String sasl = kafka.saslBootstrapServers().orElseThrow();
            long sent;
            String aggregateOutput;
            String printed;
            try (ConsoleCapture console = ConsoleCapture.stdoutAndStderr()) {
                int before = console.size();
                assertThat(Cli.commandLine().execute("run", "--bootstrap-servers", sasl, "--kafka-config",
                        config.toString(), "--workload", "oltp_point_select", "--threads", "2", "--warmup", "0s",
                        "--duration", "2s", "--run-id", "sasl-1", "--json", "--spool-dir",
                        dir.resolve("spool").toString())).isZero();
                sent = samplesSent(console.text().substring(before));
                // aggregate runs until stopped: in a process of its own, as a user starts it
                Process aggregate = ChildJvm.of(Main.class).heap("512m").args("aggregate", "--bootstrap-servers",
                        sasl, "--kafka-config", config.toString(), "--state-dir", dir.resolve("state").toString(),
                        "--no-rollups").start(dir.resolve("aggregate.log"));
                try (AggregationProgress progress = AggregationProgress.open(sasl, clientConfig)) {
                    progress.awaitCounts("sasl-1", Map.of(1, sent), Duration.ofSeconds(90));
                } finally {
                    aggregate.destroy();
                    aggregate.waitFor(60, java.util.concurrent.TimeUnit.SECONDS);
                    aggregate.destroyForcibly();
                }
                aggregateOutput = Files.readString(dir.resolve("aggregate.log"));
                assertThat(Cli.commandLine().execute("archive", "--bootstrap-servers", sasl, "--kafka-config",
                        config.toString(), "--archive", dir.resolve("archive").toString(), "--until-caught-up"))
                        .isZero();
                // a wrong password is a one-line error at start, not a run that spools forever
                Path wrong = dir.resolve("wrong.properties");
                Files.writeString(wrong, Files.readString(config).replace(password, "wrong-" + password));
                int beforeWrong = console.size();
                assertThat(Cli.commandLine().execute("run", "--bootstrap-servers", sasl, "--kafka-config",
                        wrong.toString(), "--workload", "oltp_point_select", "--duration", "1s", "--run-id",
                        "sasl-2", "--spool-dir", dir.resolve("spool").toString())).isNotZero();
                assertThat(console.text().substring(beforeWrong))
                        .contains("refused this client");
                // so is archive's: the cluster answers, and says no
                CliUsageTest.Outcome archiveWrong = CliUsageTest.execute("archive", "--bootstrap-servers", sasl,
                        "--kafka-config", wrong.toString(), "--archive", dir.resolve("archive-2").toString(),
                        "--until-caught-up");
                assertThat(archiveWrong.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
                assertThat(archiveWrong.err()).contains("Kafka at " + sasl + " refused this client")
                        .doesNotContain(password);
                assertThat(archiveWrong.err().strip().lines()).hasSize(1);
                printed = console.text();
            }
            String output = printed + aggregateOutput;
            System.out.print(output);
            assertThat(sent).isPositive();
            try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("archive"))) {
                assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
                assertThat(longValue(db, "SELECT sum(count) FROM windows WHERE op = '*'")).isEqualTo(sent);
            }
            assertThat(aggregateOutput).contains("aggregator running against " + sasl);
            assertThat(output).doesNotContain(password);
            assertThat(countFiles(dir.resolve("archive"))).isPositive();
            assertThat(filesContaining(dir.resolve("archive"), password)).isEmpty();
            // the events on every topic, read over the broker's unauthenticated listener
            assertThat(recordsContaining(kafka.bootstrapServers(), password)).isEmpty();
        }
    }

    @Test
    void kafkaConfig_refusesKeysTailstreamSets_andNamesNoValue() throws IOException {
        Path config = dir.resolve("bad.properties");
        Files.writeString(config, "acks=1\nsasl.jaas.config=secret-value\n");
        KafkaOptions options = new KafkaOptions();
        options.kafkaConfig = config;
        org.assertj.core.api.Assertions.assertThatThrownBy(options::clientConfig)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kafka-config " + config + ": acks is set by tailstream: remove it")
                .hasMessageNotContaining("secret-value");
        KafkaOptions missing = new KafkaOptions();
        missing.kafkaConfig = dir.resolve("missing.properties");
        org.assertj.core.api.Assertions.assertThatThrownBy(missing::clientConfig)
                .hasMessage("--kafka-config " + missing.kafkaConfig + ": no such file");
    }

    @Test
    void streamsReplication_followsTheCluster_unlessTheFileSetsIt() {
        assertThat(KafkaOptions.withStreamsReplication(Map.of("security.protocol", "SSL"),
                io.tailstream.infra.kafka.TopicProvisioner.Replication.forBrokers(3)))
                .containsEntry("replication.factor", "3")
                .containsEntry("topic.min.insync.replicas", "2")
                .containsEntry("security.protocol", "SSL");
        assertThat(KafkaOptions.withStreamsReplication(Map.of("replication.factor", "5"),
                io.tailstream.infra.kafka.TopicProvisioner.Replication.forBrokers(1)))
                .containsEntry("replication.factor", "5")
                .containsEntry("topic.min.insync.replicas", "1");
    }

    private static List<Path> filesContaining(Path root, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<Path> hits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (indexOf(Files.readAllBytes(f), needle) >= 0) {
                    hits.add(f);
                }
            }
        }
        return hits;
    }

    private static long countFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    private static List<String> recordsContaining(String bootstrap, String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        List<String> hits = new ArrayList<>();
        long read = 0;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            // tailstream's topics and Kafka Streams' changelogs
            for (String topic : c.listTopics().keySet()) {
                c.partitionsFor(topic).forEach(pi -> parts.add(new TopicPartition(topic, pi.partition())));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            // up to the end offsets (transaction markers of the aggregator's output count in them, as no record)
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("all records read within 60 s").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    read++;
                    if ((r.value() != null && indexOf(r.value(), needle) >= 0)
                            || (r.key() != null && indexOf(r.key(), needle) >= 0)) {
                        hits.add(r.topic() + "-" + r.partition() + "@" + r.offset());
                    }
                }
            }
            assertThat(read).as("records read").isPositive();
        }
        return hits;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Sum of samplesSent in the --json document. */
    private static long samplesSent(String printed) {
        String json = printed.substring(printed.indexOf("{\"steps\""));
        json = json.substring(0, json.indexOf('\n') < 0 ? json.length() : json.indexOf('\n'));
        JsonNode node = Json.read(json.trim(), JsonNode.class);
        long total = 0;
        for (JsonNode step : node.get("steps")) {
            total += step.get("samplesSent").asLong();
        }
        return total;
    }
}
