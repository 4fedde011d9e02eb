package io.tailstream.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.TopicProvisioner.Replication;
import io.tailstream.schemas.TopicSpec;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infra/deploy/create-topics.sh}, the topics an operator creates, agrees with the code's topic specs
 * ({@link Topics#all}, {@link Replication#forBrokers} for three brokers): the script is run with a stand-in for
 * {@code kafka-topics.sh} that records its arguments, and every call is compared with the spec of its topic.
 */
class TopicScriptTest {

    static final Path SCRIPT = Path.of("deploy", "create-topics.sh");

    @TempDir
    Path dir;

    /** One kafka-topics.sh call of the script. */
    record Call(String topic, int partitions, int replicationFactor, Map<String, String> configs, List<String> args) {}

    @Test
    void everyTopicOfTheCode_createdAsItsSpecSays_withThreeReplicasTwoInSync() throws Exception {
        List<Call> calls = run("--command-config", "client.properties");
        Map<String, Call> byTopic = calls.stream().collect(Collectors.toMap(Call::topic, Function.identity()));
        assertThat(byTopic).as("one call per topic").hasSameSizeAs(calls);

        int samplePartitions = byTopic.get(Topics.SAMPLES).partitions();
        assertThat(samplePartitions).as("room for several aggregator instances").isGreaterThan(1);
        List<TopicSpec> specs = Topics.all(samplePartitions);
        assertThat(byTopic.keySet()).containsExactlyInAnyOrderElementsOf(specs.stream().map(TopicSpec::name).toList());

        Replication threeBrokers = Replication.forBrokers(3);
        for (TopicSpec spec : specs) {
            Call call = byTopic.get(spec.name());
            assertThat(call.partitions()).as(spec.name() + " partitions").isEqualTo(spec.partitions());
            assertThat(call.replicationFactor()).as(spec.name() + " replication factor").isEqualTo(3)
                    .isEqualTo(threeBrokers.factor());
            Map<String, String> expected = new TreeMap<>(spec.configs());
            expected.putIfAbsent("min.insync.replicas", String.valueOf(threeBrokers.minInSync()));
            assertThat(new TreeMap<>(call.configs())).as(spec.name() + " configs").isEqualTo(expected);
            assertThat(call.configs()).containsEntry("min.insync.replicas", "2");
            assertThat(call.args()).as("idempotent, and the extra arguments passed on")
                    .contains("--if-not-exists", "--create")
                    .containsSequence("--command-config", "client.properties")
                    .containsSequence("--bootstrap-server", "kafka-9:9092");
        }
        assertThat(byTopic.get(Topics.SAMPLES).configs()).containsEntry("retention.ms", String.valueOf(7L * 24 * 3600
                * 1000)).containsEntry("cleanup.policy", "delete");
    }

    /** Runs the script with a kafka-topics.sh stand-in that prints its arguments one per line, calls apart. */
    private List<Call> run(String... extra) throws IOException, InterruptedException {
        Path stub = dir.resolve("kafka-topics.sh");
        Files.writeString(stub, "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\necho ---\n");
        assertThat(stub.toFile().setExecutable(true)).isTrue();
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("KAFKA_TOPICS", stub.toString());
        pb.environment().put("BOOTSTRAP", "kafka-9:9092");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        List<Call> calls = new ArrayList<>();
        for (String block : out.split("---\n")) {
            if (!block.isBlank()) {
                calls.add(parse(List.of(block.split("\n"))));
            }
        }
        return calls;
    }

    private static Call parse(List<String> args) {
        String topic = null;
        int partitions = -1;
        int replication = -1;
        Map<String, String> configs = new HashMap<>();
        for (int i = 0; i < args.size() - 1; i++) {
            String value = args.get(i + 1);
            switch (args.get(i)) {
                case "--topic" -> topic = value;
                case "--partitions" -> partitions = Integer.parseInt(value);
                case "--replication-factor" -> replication = Integer.parseInt(value);
                case "--config" -> {
                    int eq = value.indexOf('=');
                    assertThat(configs.put(value.substring(0, eq), value.substring(eq + 1))).as("config given twice: "
                            + value).isNull();
                }
                default -> { }
            }
        }
        return new Call(topic, partitions, replication, configs, args);
    }
}
