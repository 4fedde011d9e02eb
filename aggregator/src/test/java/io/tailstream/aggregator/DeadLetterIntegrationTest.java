package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.http.LiveWindows;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.topology.DeadLetters;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison input (in-process broker): between the good blocks and events of a run, random bytes, a truncated block and
 * a block of an unknown format version on the samples topic, malformed JSON and an event of an unknown type on the
 * control topic. Each one is dead-lettered with its reason and coordinates, counted in
 * {@code tailstream_deadletters_total{topic,reason}} and in the run summary, and nothing else is affected: every
 * window and the step's summary are exact.
 */
class DeadLetterIntegrationTest {

    private static final List<String> OPS = List.of("read", "write");
    private static final String RUN = "dlq-run";
    private static final int STEP = 1;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    /** A poison record as written: where it landed and the reason code expected for it. */
    private record Poison(String topic, long offset, String code, byte[] value) {}

    @Test
    void poisonRecordsBetweenGoodBlocks_areDeadLetteredWithReason_countedAndTheRunStaysExact() throws Exception {
        AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-deadletters");
        long base = (System.currentTimeMillis() / 1000 - 3600) * 1000;
        TestProducer p = new TestProducer(RUN, "p1");
        Random random = new Random(3);
        List<Poison> poison = new ArrayList<>();
        Map<Long, Long> perWindow = new TreeMap<>();
        long blocks = 0;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(kafka.bootstrapServers());
                 Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, dir,
                         new LiveWindows(registry))) {
                control(producer, new RunStarted(RUN, base, "p1", "dlq-plan", List.of(), Map.of(), RunSettings.NONE));
                control(producer, new StepStarted(RUN, base, "p1", STEP, null, "oltp_test", 2, 1, 0, 10_000, OPS, 0,
                        Map.of()));
                poison.add(send(producer, Topics.CONTROL, RUN, "{\"type\":\"step_started\",\"runId\":"
                        .getBytes(StandardCharsets.UTF_8), DeadLetters.INVALID_JSON));
                poison.add(send(producer, Topics.CONTROL, RUN, ("{\"type\":\"step_paused\",\"runId\":\"" + RUN
                        + "\",\"producerId\":\"p1\"}").getBytes(StandardCharsets.UTF_8),
                        DeadLetters.UNKNOWN_EVENT_TYPE));
                for (int second = 0; second < 10; second++) {
                    List<Sample> batch = new ArrayList<>();
                    int n = 100 + second;
                    for (int i = 0; i < n; i++) {
                        long end = (base + second * 1000L + i * 9L) * 1000;
                        long latency = 100 + random.nextInt(5000);
                        batch.add(new Sample(end - latency, latency, end - latency, i % 2, SampleStatus.OK, 1,
                                false));
                    }
                    perWindow.put(base + second * 1000L, (long) n);
                    byte[] block = p.samples(STEP, OPS, batch, (base + second * 1000L + 999) * 1000);
                    send(producer, Topics.SAMPLES, p.key(), block, null);
                    blocks++;
                    if (second == 2) {
                        byte[] noise = new byte[300];
                        random.nextBytes(noise);
                        poison.add(send(producer, Topics.SAMPLES, p.key(), noise, DeadLetters.BAD_MAGIC));
                    } else if (second == 4) {
                        poison.add(send(producer, Topics.SAMPLES, p.key(), Arrays.copyOf(block, block.length / 2),
                                DeadLetters.CHECKSUM));
                    } else if (second == 6) {
                        byte[] future = block.clone();
                        future[2] = 9;
                        poison.add(send(producer, Topics.SAMPLES, p.key(), future, DeadLetters.UNSUPPORTED_VERSION));
                    }
                }
                send(producer, Topics.SAMPLES, p.key(), p.endOfStep(STEP, OPS, (base + 10_000) * 1000), null);
                blocks++;
                control(producer, new StepEnded(RUN, base + 10_000, "p1", STEP, 0, blocks, 0, "completed"));
                control(producer, new RunEnded(RUN, base + 10_500, "p1", blocks, total(perWindow), "completed"));
                producer.flush();

                Outputs out = awaitOutputs(kafka.bootstrapServers(), poison.size(), aggregator);

                // every dead letter, with its reason and where it was read, value unchanged
                assertThat(out.deadLetters).hasSize(poison.size());
                for (Poison expected : poison) {
                    assertThat(out.deadLetters).as("dead letter of %s offset %d", expected.topic, expected.offset)
                            .anySatisfy(r -> {
                                assertThat(header(r, DeadLetters.TOPIC)).isEqualTo(expected.topic);
                                assertThat(header(r, DeadLetters.PARTITION)).isEqualTo("0");
                                assertThat(header(r, DeadLetters.OFFSET)).isEqualTo(String.valueOf(expected.offset));
                                assertThat(header(r, DeadLetters.REASON_CODE)).isEqualTo(expected.code);
                                assertThat(header(r, DeadLetters.REASON)).isNotBlank();
                                assertThat(r.value()).isEqualTo(expected.value);
                            });
                }
                String metrics = registry.scrape();
                for (Poison expected : poison) {
                    assertThat(metrics).contains("tailstream_deadletters_total{reason=\"" + expected.code
                            + "\",topic=\"" + expected.topic + "\"} 1.0");
                }

                // nothing else affected: every window exact, the summary complete and exact
                Map<Long, Long> windows = new TreeMap<>();
                for (WindowStats w : out.windows) {
                    if (w.op().equals(WindowStats.ALL_OPS) && w.count() > 0) {
                        assertThat(w.lateCount()).isZero();
                        windows.merge(w.windowStartEpochMs(), w.count(), Long::sum);
                    }
                }
                assertThat(windows).isEqualTo(perWindow);
                long total = total(perWindow);
                StepSummary all = out.summaries.get(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS));
                assertThat(all).isNotNull();
                assertThat(all.count()).isEqualTo(total);
                assertThat(all.missingBlocks()).isZero();
                assertThat(all.complete()).isTrue();
                assertThat(all.lateCount()).isZero();
                // the run summary counts the run's dead letters by reason (every key named the run)
                Map<String, Long> byReason = new TreeMap<>();
                poison.forEach(x -> byReason.merge(x.code, 1L, Long::sum));
                RunSummary last = out.runSummaries.get(out.runSummaries.size() - 1);
                assertThat(last.complete()).isTrue();
                assertThat(last.deadLetters()).isEqualTo(byReason);
            }
        }
    }

    private record Outputs(List<WindowStats> windows, Map<String, StepSummary> summaries,
                           List<RunSummary> runSummaries, List<ConsumerRecord<byte[], byte[]>> deadLetters) {}

    /** Reads the outputs (read_committed) until the dead letters and a complete "*" summary are in. */
    private static Outputs awaitOutputs(String bootstrap, int deadLetters, Aggregator aggregator)
            throws InterruptedException {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<WindowStats> windows = new ArrayList<>();
        Map<String, StepSummary> summaries = new TreeMap<>();
        List<RunSummary> runSummaries = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = List.of(new TopicPartition(Topics.WINDOWS, 0),
                    new TopicPartition(Topics.SUMMARIES, 0), new TopicPartition(Topics.RUN_SUMMARIES, 0),
                    new TopicPartition(Topics.DEAD_LETTER, 0));
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (true) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    switch (r.topic()) {
                        case Topics.WINDOWS -> windows.add(Json.read(r.value(), WindowStats.class));
                        case Topics.SUMMARIES -> {
                            StepSummary s = Json.read(r.value(), StepSummary.class);
                            summaries.put(s.key(), s);
                        }
                        case Topics.RUN_SUMMARIES -> runSummaries.add(Json.read(r.value(), RunSummary.class));
                        default -> dead.add(r);
                    }
                }
                StepSummary all = summaries.get(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS));
                boolean done = dead.size() >= deadLetters && all != null && all.complete()
                        && summaries.size() == OPS.size() + 1
                        && !runSummaries.isEmpty() && runSummaries.get(runSummaries.size() - 1).complete()
                        && runSummaries.get(runSummaries.size() - 1).deadLetters() != null
                        && runSummaries.get(runSummaries.size() - 1).deadLetters().values().stream()
                                .mapToLong(Long::longValue).sum() >= deadLetters;
                if (done) {
                    return new Outputs(windows, summaries, runSummaries, dead);
                }
                assertThat(aggregator.failure()).isEmpty();
                assertThat(System.nanoTime() - deadline).as("outputs within %s: %d dead letters, summaries %s",
                        TIMEOUT, dead.size(), summaries.keySet()).isNegative();
            }
        }
    }

    private static long total(Map<Long, Long> perWindow) {
        return perWindow.values().stream().mapToLong(Long::longValue).sum();
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        assertThat(r.headers().lastHeader(name)).as("header " + name).isNotNull();
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static void control(KafkaProducer<String, byte[]> producer, ControlEvent e) throws Exception {
        send(producer, Topics.CONTROL, e.runId(), Json.write(e), null);
    }

    private static Poison send(KafkaProducer<String, byte[]> producer, String topic, String key, byte[] value,
                               String code) throws Exception {
        long offset = producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS).offset();
        return new Poison(topic, offset, code, value);
    }
}
