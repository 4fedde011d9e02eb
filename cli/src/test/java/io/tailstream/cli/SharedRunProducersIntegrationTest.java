package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ProducerReady;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three producer processes share one run against the same MariaDB database ({@code run --producers 3}), the third
 * started only once the other two wait for it: each step starts at one agreed time, the planned threads are split
 * (2 = 1 + 1, one producer sits that step out; 5 = 2 + 2 + 1), and the aggregator's step summaries, the archive's raw
 * samples and each producer's own counts agree exactly.
 */
class SharedRunProducersIntegrationTest {

    private static final String RUN = "shared-3";

    @TempDir
    Path dir;

    @Test
    void threeProducerProcesses_startEachStepTogether_andAddUpExactly() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        String[] target = PasswordEnvTarget.options(server, "oltp_point_select", 1, 1000);
        assertThat(Cli.commandLine().execute(PasswordEnvTarget.args("prepare", target))).isZero();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(2));
            try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults(),
                    dir.resolve("state"))) {
                List<Process> producers = new ArrayList<>();
                try {
                    producers.add(start(bootstrap, target, 0));
                    producers.add(start(bootstrap, target, 1));
                    // the skew: the third producer starts only when the first two are ready for step 1 and waiting
                    readControl(bootstrap, events -> events.stream().filter(e -> e instanceof ProducerReady r
                            && r.stepId() == 1).count() == 2, "two producers ready for step 1", producers);
                    producers.add(start(bootstrap, target, 2));
                    ProducerProcesses.awaitAll(dir, producers);
                } finally {
                    producers.forEach(Process::destroyForcibly);
                }
                check(bootstrap);
            }
        } finally {
            Cli.commandLine().execute(PasswordEnvTarget.args("cleanup", target));
        }
    }

    private void check(String bootstrap) throws Exception {
        // each producer's own account: --json on stdout
        Map<Integer, Map<Integer, Long>> sentByStepAndProducer = new TreeMap<>();
        Map<Integer, Map<Integer, Integer>> threadsByStepAndProducer = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            JsonNode json = Json.read(Files.readString(dir.resolve("out-" + i + ".json")).trim(), JsonNode.class);
            for (JsonNode step : json.get("steps")) {
                int id = step.get("stepId").asInt();
                sentByStepAndProducer.computeIfAbsent(id, k -> new TreeMap<>()).put(i, step.get("samplesSent")
                        .asLong());
                threadsByStepAndProducer.computeIfAbsent(id, k -> new TreeMap<>()).put(i, step.get("threads")
                        .asInt());
            }
            System.out.println("producer " + i + ":\n" + output(i));
        }
        assertThat(threadsByStepAndProducer.get(1).values()).containsExactlyInAnyOrder(1, 1);
        assertThat(threadsByStepAndProducer.get(2).values()).containsExactlyInAnyOrder(2, 2, 1);
        // the producer that sat step 1 out said why
        assertThat(String.join("\n", List.of(output(0), output(1), output(2))))
                .contains("not run here, step 1 has 2 threads for 3 producers: none falls to this one");

        List<ControlEvent> control = readControl(bootstrap, events -> events.stream()
                .filter(e -> e instanceof StepEnded).count() == 5, "five step ends", List.of());
        for (int step = 1; step <= 2; step++) {
            int s = step;
            List<StepStarted> starts = control.stream().filter(e -> e instanceof StepStarted t && t.stepId() == s)
                    .map(StepStarted.class::cast).toList();
            assertThat(starts).hasSize(step == 1 ? 2 : 3);
            // one agreed start and the same producers in every producer's event
            assertThat(starts.stream().map(StepStarted::startAtEpochMs).distinct().toList()).hasSize(1)
                    .doesNotContainNull();
            assertThat(starts.stream().map(StepStarted::participants).distinct().toList()).hasSize(1);
            assertThat(starts.get(0).participants()).containsExactlyInAnyOrderElementsOf(starts.stream()
                    .map(StepStarted::producerId).toList());
            long agreedMicros = starts.get(0).startAtEpochMs() * 1000;
            // no producer started before the agreed time
            control.stream().filter(e -> e instanceof StepEnded t && t.stepId() == s).map(StepEnded.class::cast)
                    .forEach(e -> assertThat(e.startEpochMicros()).as("step %d of %s", s, e.producerId())
                            .isGreaterThanOrEqualTo(agreedMicros));
        }

        Map<Integer, Long> sentByStep = new TreeMap<>();
        sentByStepAndProducer.forEach((step, m) -> sentByStep.put(step, m.values().stream()
                .mapToLong(Long::longValue).sum()));
        try (AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
            progress.awaitCounts(RUN, sentByStep, Duration.ofSeconds(120));
        }
        Map<Integer, StepSummary> summaries = readSummaries(bootstrap);
        assertThat(Cli.commandLine().execute("archive", "--bootstrap-servers", bootstrap, "--archive",
                dir.resolve("archive").toString(), "--until-caught-up")).isZero();
        try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("archive"));
             Statement st = db.connection().createStatement()) {
            for (int step = 1; step <= 2; step++) {
                StepSummary summary = summaries.get(step);
                assertThat(summary.complete()).isTrue();
                assertThat(summary.missingProducers()).isEmpty();
                assertThat(summary.threads()).isEqualTo(step == 1 ? 2 : 5);
                assertThat(summary.producers()).hasSize(step == 1 ? 2 : 3);
                assertThat(summary.producers().stream().mapToLong(StepSummary.ProducerPart::samplesSent).sum())
                        .isEqualTo(sentByStep.get(step));
                try (ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE NOT warmup),"
                        + " count(DISTINCT producer_id) FROM samples WHERE step_id = " + step)) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("samples of step %d", step).isEqualTo(sentByStep.get(step));
                    assertThat(rs.getLong(2)).as("measured samples of step %d", step).isEqualTo(summary.count());
                    assertThat(rs.getInt(3)).isEqualTo(step == 1 ? 2 : 3);
                }
                try (ResultSet rs = st.executeQuery("SELECT threads, samples_sent FROM steps WHERE step_id = "
                        + step)) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(step == 1 ? 2 : 5);
                    assertThat(rs.getLong(2)).isEqualTo(sentByStep.get(step));
                }
            }
        }
    }

    private Process start(String bootstrap, String[] target, int i) throws Exception {
        return ProducerProcesses.start(dir, i, PasswordEnvTarget.args("run", new String[] {"--bootstrap-servers",
                bootstrap, "--run-id", RUN, "--producers", "3", "--join-timeout", "120s", "--threads", "2,5",
                "--warmup", "1s", "--duration", "2s", "--report-interval", "1", "--json", "--spool-dir",
                dir.resolve("spool-" + i).toString()}, target));
    }

    private String output(int i) {
        return ProducerProcesses.output(dir, i);
    }

    /** The run's control events, read until {@code done} holds of them (producers must stay alive meanwhile). */
    private List<ControlEvent> readControl(String bootstrap, Predicate<List<ControlEvent>> done, String what,
                                           List<Process> alive) throws Exception {
        List<ControlEvent> events = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            consumer.subscribe(List.of(Topics.CONTROL));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!done.test(events)) {
                assertThat(System.nanoTime()).as(what + " within 180 s").isLessThan(deadline);
                for (int i = 0; i < alive.size(); i++) {
                    assertThat(alive.get(i).isAlive()).as("producer %d is alive while the test waits for %s: %s",
                            i, what, output(i)).isTrue();
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (RUN.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        events.add(Json.read(r.value(), ControlEvent.class));
                    }
                }
            }
        }
        return events;
    }

    /** The last {@code *} summary of each step, once every step's is complete. */
    private Map<Integer, StepSummary> readSummaries(String bootstrap) {
        Map<Integer, StepSummary> last = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            consumer.subscribe(List.of(Topics.SUMMARIES));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (last.size() < 2 || !last.values().stream().allMatch(StepSummary::complete)) {
                assertThat(System.nanoTime()).as("complete summaries of both steps within 120 s: %s", last)
                        .isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    StepSummary s = Json.read(r.value(), StepSummary.class);
                    if (RUN.equals(s.runId()) && WindowStats.ALL_OPS.equals(s.op())) {
                        last.put(s.stepId(), s);
                    }
                }
            }
        }
        return last;
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
    }
}
