package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.AggregatorStatus.Phase;
import io.tailstream.aggregator.http.LiveWindows;
import io.tailstream.aggregator.http.MonitorServer;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restarted aggregator says what it is doing (in-process broker): a first instance aggregates a step and stops;
 * a second one with the same application id restores its state stores from their changelogs (they are in memory),
 * and its status goes starting, waiting for partition assignment, restoring (with records still to restore), running
 * and caught up, in that order, on its status lines, {@code /metrics} and {@code /api/status}.
 */
class LifecycleStatusIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(LifecycleStatusIntegrationTest.class);
    private static final List<String> OPS = List.of("read", "write");
    private static final String RUN = "lifecycle";
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final String WINDOW_CHANGELOG = "it-lifecycle-window-aggregates-changelog";

    @TempDir
    Path dir;

    /** A status line with what the status said when it was given. */
    private record Line(String text, Phase phase, long remaining) {}

    @Test
    void restart_withStateToRestore_reportsStartingAssignmentRestoringRunningCaughtUpInOrder() throws Exception {
        // a short session, so the second instance does not wait 45 s for the first one's to expire
        AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-lifecycle")
                .withRollups(List.of(Duration.ofSeconds(10)))
                .withClientOverrides(Map.of("consumer.session.timeout.ms", "6000",
                        "consumer.heartbeat.interval.ms", "1000"));
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            send(kafka.bootstrapServers());
            List<Line> first = Collections.synchronizedList(new ArrayList<>());
            AggregatorStatus firstStatus = recording(first);
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, dir.resolve("a"),
                    TopologyListener.NONE, firstStatus)) {
                await("first instance caught up", () -> firstStatus.phase() == Phase.CAUGHT_UP, aggregator);
                // caught up means its input is read, not that its windows' state is committed to the changelog: on a
                // busy machine the first commit can come later, and a restart would then have nothing to restore
                await("window state committed to its changelog",
                        () -> committedRecords(kafka.bootstrapServers(), WINDOW_CHANGELOG) > 0, aggregator);
            }
            assertThat(first).noneSatisfy(l -> assertThat(l.text()).startsWith("state stores restored"));

            List<Line> lines = Collections.synchronizedList(new ArrayList<>());
            AggregatorStatus status = recording(lines);
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            status.bindTo(registry);
            assertThat(registry.scrape()).contains("tailstream_aggregator_state{state=\"starting\"} 1.0");
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, dir.resolve("b"),
                    TopologyListener.NONE, status);
                 MonitorServer monitor = MonitorServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                         0), new LiveWindows(registry), (r, s, o) -> List.of(), registry, status::snapshot)) {
                await("restarted instance caught up", () -> status.phase() == Phase.CAUGHT_UP, aggregator);

                List<Phase> phases;
                synchronized (lines) {
                    phases = lines.stream().map(Line::phase).distinct().toList();
                }
                assertThat(phases).as("phases in the order first seen, lines %s", lines).containsExactly(
                        Phase.STARTING, Phase.WAITING_FOR_ASSIGNMENT, Phase.RESTORING, Phase.RUNNING,
                        Phase.CAUGHT_UP);
                // each store partition with records to restore is named, with the records still to restore
                assertThat(lines).filteredOn(l -> l.phase() == Phase.RESTORING)
                        .anySatisfy(l -> assertThat(l.text()).isEqualTo("restoring state stores from their changelogs"))
                        .anySatisfy(l -> {
                            assertThat(l.text()).matches("restoring state store window-aggregates \\(changelog "
                                    + "it-lifecycle-window-aggregates-changelog-[01]\\): [1-9][0-9,]* records");
                            assertThat(l.remaining()).isPositive();
                        });
                assertThat(lines).anySatisfy(l -> assertThat(l.text()).matches("state stores restored: [1-9][0-9,]* "
                        + "records in [0-9.]+ s"));
                assertThat(status.restoredRecords()).isPositive();
                assertThat(status.restoreRecordsRemaining()).isZero();

                String metrics = registry.scrape();
                assertThat(metrics).contains("tailstream_aggregator_state{state=\"caught_up\"} 1.0")
                        .contains("tailstream_aggregator_state{state=\"restoring\"} 0.0")
                        .contains("tailstream_aggregator_restore_records_remaining 0.0");
                HttpResponse<String> api = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(monitor.url() + "api/status")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(api.statusCode()).isEqualTo(200);
                HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(monitor.url())).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(page.body()).as("the live page shows the status line").contains("getJson(\"api/status\")")
                        .contains("<div id=\"status\"");
                assertThat(api.body()).contains("\"state\":\"caught_up\"")
                        .contains("\"line\":\"running, caught up (input lag reached 0)\"");
            }
        }
    }

    /** Records committed to a topic's two partitions (their read-committed end offsets). */
    private static long committedRecords(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            return consumer.endOffsets(List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)))
                    .values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static AggregatorStatus recording(List<Line> lines) {
        AggregatorStatus[] self = new AggregatorStatus[1];
        self[0] = new AggregatorStatus(text -> {
            LOG.info("status: {}", text);
            lines.add(new Line(text, self[0] == null ? Phase.STARTING : self[0].phase(),
                    self[0] == null ? 0 : self[0].restoreRecordsRemaining()));
        });
        return self[0];
    }

    private static void await(String what, BooleanSupplier condition, Aggregator aggregator)
            throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(aggregator.failure()).as(what + ": aggregator failed").isEmpty();
            assertThat(System.nanoTime() - deadline).as(what + " within " + TIMEOUT + " (state "
                    + aggregator.status().line() + ")").isNegative();
            Thread.sleep(100);
        }
    }

    /** One step of 60 s (event time, an hour ago) with 200 samples per second, then its end-of-step marker. */
    private static void send(String bootstrap) {
        long base = (System.currentTimeMillis() / 1000 - 3600) * 1000;
        TestProducer p = new TestProducer(RUN, "p1");
        Random random = new Random(11);
        try (KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(bootstrap)) {
            for (int second = 0; second < 60; second++) {
                List<Sample> batch = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    long end = (base + second * 1000L + i * 5L) * 1000;
                    long latency = 100 + random.nextInt(5000);
                    batch.add(new Sample(end - latency, latency, end - latency, i % 2, SampleStatus.OK, 1, false));
                }
                producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(), p.samples(1, OPS, batch,
                        (base + second * 1000L + 999) * 1000)));
            }
            producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(), p.endOfStep(1, OPS, (base + 60_000) * 1000)));
            producer.flush();
        }
    }
}
