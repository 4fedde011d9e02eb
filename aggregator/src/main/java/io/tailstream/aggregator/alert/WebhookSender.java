package io.tailstream.aggregator.alert;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts alerts to a webhook, one at a time in the order given, on a daemon thread of its own. {@link #send} never
 * blocks: an alert is queued (at most {@value #QUEUE} waiting; beyond that it is dropped, counted and logged). A post
 * that fails (no connection, a timeout, HTTP 5xx or 429) is tried again after 0.5, 1, 2, 4 and 8 s, then given up
 * (counted and logged); another 4xx is given up at once. Thread safe.
 */
final class WebhookSender {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);

    static final int QUEUE = 10_000;
    static final int DEFAULT_RETRIES = 5;
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Alerts posted (2xx), given up after their tries, dropped because the queue was full. */
    record Counts(long posted, long givenUp, long dropped) {}

    private final URI url;
    private final int retries;
    private final long firstBackoffMs;
    private final HttpClient http;
    private final BlockingQueue<ObjectNode> queue = new ArrayBlockingQueue<>(QUEUE);
    private final AtomicLong posted = new AtomicLong();
    private final AtomicLong givenUp = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread thread;
    private volatile boolean closing;

    WebhookSender(URI url, int retries) {
        this(url, retries, 500);
    }

    WebhookSender(URI url, int retries, long firstBackoffMs) {
        this.url = url;
        this.retries = retries;
        this.firstBackoffMs = firstBackoffMs;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        this.thread = new Thread(this::run, "tailstream-alert-webhook");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues an alert; never blocks. */
    void send(ObjectNode alert) {
        if (!queue.offer(alert)) {
            if (dropped.incrementAndGet() == 1) {
                log.warn("alert webhook {}: {} alerts waiting, dropping new ones (counted)", url, QUEUE);
            }
        }
    }

    Counts counts() {
        return new Counts(posted.get(), givenUp.get(), dropped.get());
    }

    private void run() {
        while (!closing || !queue.isEmpty()) {
            ObjectNode alert;
            try {
                alert = queue.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (alert != null && !post(alert)) {
                return;
            }
        }
    }

    /** Posts one alert with its retries; false when interrupted. */
    private boolean post(ObjectNode alert) {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.write(alert))).build();
        String last = null;
        for (int attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(firstBackoffMs << (attempt - 1));
                } catch (InterruptedException e) {
                    return false;
                }
            }
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status / 100 == 2) {
                    posted.incrementAndGet();
                    return true;
                }
                last = "HTTP " + status;
                if (status / 100 == 4 && status != 429) {
                    break;
                }
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                return false;
            }
        }
        givenUp.incrementAndGet();
        log.warn("alert webhook {}: gave up on a {} alert: {}", url, alert.path("type").asText(), last);
        return true;
    }

    /** Stops taking alerts; posts those queued for up to {@code drain}. */
    void close(Duration drain) {
        closing = true;
        try {
            thread.join(drain.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
    }
}
