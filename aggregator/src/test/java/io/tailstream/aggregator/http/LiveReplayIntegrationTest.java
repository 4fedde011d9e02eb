package io.tailstream.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link LiveReplay} against a real broker: the windows, roll-ups, stalls and client health published in the last
 * span rebuild the same live view as the topology's calls built (what a page reloaded after an aggregator restart
 * shows); older records and unreadable ones are left out.
 */
class LiveReplayIntegrationTest {

    @Test
    void replay_rebuildsTheViewTheTopologyBuilt_withinTheSpan() throws Exception {
        long now = System.currentTimeMillis();
        long t0 = now - Duration.ofHours(2).toMillis() - (now % 60_000);
        LiveWindows direct = new LiveWindows(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                // a run of the day before: outside the span
                WindowStats old = window("old", t0 - Duration.ofHours(30).toMillis(), 1_000, 10, 0);
                producer.send(record(Topics.WINDOWS, old.scopeKey(), old, old.windowEndEpochMs()));
                for (int i = 0; i < 1_800; i++) { // half an hour of 1 s windows, with 10 s and 60 s roll-ups
                    long start = t0 + i * 1000L;
                    WindowStats w = window("r", start, 1_000, 100 + i % 13, i < 30 ? 5 : 0);
                    send(producer, direct, w);
                    if (i % 10 == 9) {
                        send(producer, direct, window("r", start - 9_000, 10_000, 1_000, 0));
                    }
                    if (i % 60 == 59) {
                        send(producer, direct, window("r", start - 59_000, 60_000, 6_000, 0));
                    }
                    if (i % 300 == 100) {
                        StallEvent open = stall(start, start + 2_000, true);
                        StallEvent ended = stall(start, start + 4_000, false);
                        direct.onStall(open);
                        direct.onStall(ended);
                        producer.send(record(Topics.STALLS, open.key(), open, start + 2_000));
                        producer.send(record(Topics.STALLS, ended.key(), ended, start + 4_000));
                    }
                    if (i % 60 == 0) {
                        ClientHealth h = new ClientHealth("r", start, "p1", 1, 40, 90, 0, 0, Map.of("db", 0.3),
                                i == 600);
                        direct.onControl(h);
                        producer.send(record(Topics.CONTROL, "r", h, start));
                    }
                }
                producer.send(new ProducerRecord<>(Topics.WINDOWS, null, now, "x".getBytes(StandardCharsets.UTF_8),
                        "{not json".getBytes(StandardCharsets.UTF_8)));
                producer.flush();
            }

            LiveWindows replayed = new LiveWindows(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
            LiveReplay.Result result = LiveReplay.replay(kafka.bootstrapServers(), Map.of(), LiveReplay.DEFAULT_SPAN,
                    1_000, replayed, line -> { });

            assertThat(result.skipped()).isEqualTo(1);
            assertThat(result.records()).isEqualTo(1_800 + 180 + 30 + 12 + 30);
            assertThat(replayed.runs()).extracting(LiveWindows.RunView::run).containsExactly("r");
            LiveWindows.TimelineView want = direct.timeline("r", 1);
            LiveWindows.TimelineView got = replayed.timeline("r", 1);
            assertThat(got.points()).hasSize(180).isEqualTo(want.points());
            assertThat(got.trend()).isEqualTo(want.trend());
            assertThat(got.trend().windows()).isEqualTo(1_800 - 30);
            assertThat(got.stalls()).hasSize(6).isEqualTo(want.stalls());
            assertThat(got.errorsTotal()).isEqualTo(want.errorsTotal());
            assertThat(replayed.producers("r")).isEqualTo(direct.producers("r"));
            assertThat(replayed.producers("r").get(0).clientBoundReports()).isEqualTo(1);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, LiveWindows direct, WindowStats w) {
        if (w.windowEndEpochMs() - w.windowStartEpochMs() == 1_000) {
            direct.onWindow(w);
        } else {
            direct.onRollup(w);
        }
        producer.send(record(Topics.WINDOWS, w.scopeKey(), w, w.windowEndEpochMs()));
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, Object value, long timestamp) {
        return new ProducerRecord<>(topic, null, timestamp, key.getBytes(StandardCharsets.UTF_8), Json.write(value));
    }

    private static WindowStats window(String run, long startMs, long lengthMs, long count, long warmup) {
        double qps = count * 1000.0 / lengthMs;
        return new WindowStats(run, 1, WindowStats.ALL_OPS, startMs, startMs + lengthMs, count, count / 50,
                Map.of(), count, warmup, 0, qps, qps, 1500, 1000, 1500, 1800, 2000, 2500, 3000, "");
    }

    private static StallEvent stall(long startMs, long endMs, boolean open) {
        return new StallEvent("r", 1, StallEvent.HARD, startMs, endMs, open, 100, 0, 1000, 0, List.of(), endMs);
    }
}
