package io.tailstream.aggregator.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.StallEvent;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The alerts against a receiver on 127.0.0.1 that answers 500 to the first posts it gets, then 200. */
class AlertWebhookTest {

    static final long T0 = 1_760_000_000_000L;

    HttpServer receiver;
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    final AtomicInteger failFirst = new AtomicInteger();
    final AtomicInteger posts = new AtomicInteger();
    final AtomicLong now = new AtomicLong(T0);

    @BeforeEach
    void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/alerts", ex -> {
            posts.incrementAndGet();
            byte[] body = ex.getRequestBody().readAllBytes();
            int status = failFirst.getAndDecrement() > 0 ? 500 : 200;
            if (status == 200) {
                received.add(Json.MAPPER.readTree(body));
            }
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    private AlertWebhook webhook(int retries) {
        URI url = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/alerts");
        // a check period of an hour: the test calls checkQuiet itself, on its own clock
        return new AlertWebhook(new WebhookSender(url, retries, 10), Duration.ofSeconds(10), now::get,
                Duration.ofHours(1));
    }

    private static StallEvent stall(boolean open, long endMs) {
        return new StallEvent("run-1", 3, StallEvent.HARD, T0 + 1_000, endMs, open, 1000.0, 0.0, 2000, 0,
                List.of("txn"), endMs + 10);
    }

    private static ClientHealth health(String producer, long atMs) {
        return new ClientHealth("run-1", atMs, producer, 3, 10, 50, 0, 0, Map.of(), false);
    }

    private void awaitReceived(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (received.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(received).hasSizeGreaterThanOrEqualTo(n);
    }

    @Test
    void aStall_alertsOnceWhenItStartsAndOnceWhenItEnds_throughFailedPosts() throws Exception {
        failFirst.set(2);
        try (AlertWebhook w = webhook(5)) {
            w.onStall(stall(true, T0 + 2_000));
            w.onStall(stall(true, T0 + 3_000)); // re-published while open
            w.onStall(stall(false, T0 + 4_000));
            w.onStall(stall(false, T0 + 4_000)); // replayed
            awaitReceived(2);
            w.close(Duration.ofSeconds(5));
            assertThat(w.counts()).isEqualTo(new WebhookSender.Counts(2, 0, 0));
        }
        assertThat(received).extracting(n -> n.get("type").asText())
                .containsExactly(AlertWebhook.STALL_STARTED, AlertWebhook.STALL_ENDED);
        assertThat(received.get(0).get("startEpochMs").asLong()).isEqualTo(T0 + 1_000);
        assertThat(received.get(0).has("endEpochMs")).isFalse();
        assertThat(received.get(1).get("endEpochMs").asLong()).isEqualTo(T0 + 4_000);
        assertThat(received.get(1).get("stepId").asInt()).isEqualTo(3);
        assertThat(posts).hasValue(4); // two refused, then each of the two alerts once
    }

    @Test
    void aWithdrawnStall_isSaidWithdrawnIfItWasAlerted_andNotAtAllIfNot() throws Exception {
        try (AlertWebhook w = webhook(5)) {
            w.onStall(stall(true, T0 + 2_000));
            w.onStall(stall(false, T0 + 1_000)); // ends where it starts: withdrawn
            w.onStall(new StallEvent("run-1", 4, StallEvent.HARD, T0, T0, false, 1000.0, 0.0, 2000, 0, List.of(),
                    T0)); // withdrawn before anything was said
            awaitReceived(2);
            w.close(Duration.ofSeconds(5));
        }
        assertThat(received).extracting(n -> n.get("type").asText())
                .containsExactly(AlertWebhook.STALL_STARTED, AlertWebhook.STALL_WITHDRAWN);
    }

    @Test
    void aPostThatKeepsFailing_isGivenUpAndCounted_andTheNextStillGoes() throws Exception {
        failFirst.set(3);
        try (AlertWebhook w = webhook(2)) {
            w.onStall(stall(true, T0 + 2_000)); // three tries, all refused
            w.onStall(stall(false, T0 + 4_000));
            awaitReceived(1);
            w.close(Duration.ofSeconds(5));
            assertThat(w.counts()).isEqualTo(new WebhookSender.Counts(1, 1, 0));
            var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
            w.bindTo(registry);
            assertThat(registry.get("tailstream.alerts").tag("outcome", "given_up").functionCounter().count())
                    .isEqualTo(1.0);
            assertThat(registry.get("tailstream.alerts").tag("outcome", "posted").functionCounter().count())
                    .isEqualTo(1.0);
        }
        assertThat(received).extracting(n -> n.get("type").asText()).containsExactly(AlertWebhook.STALL_ENDED);
    }

    @Test
    void aLiveProducerThatFallsSilent_isQuiet_thenBack_anOldOrEndedOneNever() throws Exception {
        try (AlertWebhook w = webhook(5)) {
            w.onControl(health("p1", T0 - 500)); // live: sent half a second ago
            w.onControl(health("old", T0 - 3_600_000)); // a replayed hour-old event
            w.onControl(health("done", T0 - 200));
            w.onControl(new RunEnded("run-1", T0 - 100, "done", 1, 1, "completed"));
            now.set(T0 + 9_000);
            w.checkQuiet(); // 9.5 s of silence: not yet
            now.set(T0 + 10_000);
            w.checkQuiet(); // 10.5 s: quiet
            w.checkQuiet(); // said once
            now.set(T0 + 12_000);
            w.onControl(health("p1", T0 + 11_900));
            awaitReceived(2);
            w.close(Duration.ofSeconds(5));
        }
        assertThat(received).extracting(n -> n.get("type").asText())
                .containsExactly(AlertWebhook.PRODUCER_QUIET, AlertWebhook.PRODUCER_BACK);
        JsonNode quiet = received.get(0);
        assertThat(quiet.get("producerId").asText()).isEqualTo("p1");
        assertThat(quiet.get("silentMs").asLong()).isEqualTo(10_500);
        assertThat(quiet.get("stepId").asInt()).isEqualTo(3);
    }
}
