package io.tailstream.aggregator.alert;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.StallEvent;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a webhook when a stall starts and when it ends, and when a producer of a running run goes quiet (no control
 * event for {@code quietAfter}; its health arrives once a second) and when it speaks again. A {@link TopologyListener}:
 * the stream thread only decides and queues ({@link WebhookSender} posts on a thread of its own, retried), so a slow
 * or absent receiver never holds up the aggregation.
 *
 * <p>Each alert is sent once per process: a stall record seen again (re-published while open, or replayed after a
 * restart) does not repeat its alert. A restarted aggregator may repeat alerts it sent before the restart. A producer
 * is watched only once one of its events arrived within {@code quietAfter} of being sent (a live one): replaying an
 * old run's events raises no alert. Thread safe.
 */
public final class AlertWebhook implements TopologyListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AlertWebhook.class);

    /** Stall keys remembered per kind of alert; the oldest are forgotten past this. */
    static final int KEYS_KEPT = 100_000;

    public static final String STALL_STARTED = "stall_started";
    public static final String STALL_ENDED = "stall_ended";
    /** A stall alerted on was withdrawn: its step's measurement ended early, before the stall's windows. */
    public static final String STALL_WITHDRAWN = "stall_withdrawn";
    public static final String PRODUCER_QUIET = "producer_quiet";
    public static final String PRODUCER_BACK = "producer_back";

    private final WebhookSender sender;
    private final long quietAfterMs;
    private final LongSupplier nowMs;
    private final ScheduledExecutorService watch;
    private final Set<String> started = new LinkedHashSet<>();
    private final Set<String> ended = new LinkedHashSet<>();
    private final Map<String, Producer> producers = new ConcurrentHashMap<>();

    /** What is known of one producer of one run. */
    private static final class Producer {
        final String runId;
        final String producerId;
        volatile long lastEventAtMs;
        volatile Integer stepId;
        boolean quiet;

        Producer(String runId, String producerId) {
            this.runId = runId;
            this.producerId = producerId;
        }
    }

    /**
     * @param url        where alerts are posted (JSON)
     * @param quietAfter a live producer without a control event for this long is quiet
     */
    public AlertWebhook(URI url, Duration quietAfter) {
        this(new WebhookSender(url, WebhookSender.DEFAULT_RETRIES), quietAfter, System::currentTimeMillis,
                Duration.ofSeconds(1));
    }

    AlertWebhook(WebhookSender sender, Duration quietAfter, LongSupplier nowMs, Duration checkEvery) {
        this.sender = sender;
        this.quietAfterMs = quietAfter.toMillis();
        this.nowMs = nowMs;
        this.watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tailstream-alert-watch");
            t.setDaemon(true);
            return t;
        });
        watch.scheduleAtFixedRate(this::checkQuiet, checkEvery.toMillis(), checkEvery.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void onStall(StallEvent s) {
        String key = s.runId() + "/" + s.stepId() + "/" + s.kind() + "/" + s.startEpochMs();
        boolean start;
        boolean end;
        synchronized (this) {
            if (s.withdrawn()) {
                // never started here: nothing to take back; started: say it was withdrawn, once
                start = false;
                end = started.contains(key) && remember(ended, key);
            } else {
                start = remember(started, key);
                end = !s.open() && remember(ended, key);
            }
        }
        if (start) {
            sender.send(stall(STALL_STARTED, s));
        }
        if (end) {
            sender.send(stall(s.withdrawn() ? STALL_WITHDRAWN : STALL_ENDED, s));
        }
    }

    private static boolean remember(Set<String> keys, String key) {
        if (!keys.add(key)) {
            return false;
        }
        if (keys.size() > KEYS_KEPT) {
            Iterator<String> oldest = keys.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }

    private ObjectNode stall(String type, StallEvent s) {
        ObjectNode n = alert(type, s.runId());
        n.put("stepId", s.stepId());
        n.put("kind", s.kind());
        n.put("startEpochMs", s.startEpochMs());
        if (!s.open()) {
            n.put("endEpochMs", s.endEpochMs());
        }
        n.put("baselineQps", s.baselineQps());
        n.put("minQps", s.minQps());
        n.put("baselineP99Micros", s.baselineP99Micros());
        n.put("worstP99Micros", s.worstP99Micros());
        return n;
    }

    private ObjectNode alert(String type, String runId) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("type", type);
        n.put("runId", runId);
        n.put("atEpochMs", nowMs.getAsLong());
        return n;
    }

    @Override
    public void onControl(ControlEvent e) {
        String key = e.runId() + "/" + e.producerId();
        if (e instanceof RunEnded) {
            producers.remove(key);
            return;
        }
        long now = nowMs.getAsLong();
        Producer p = producers.get(key);
        if (p == null) {
            if (now - e.atEpochMs() > quietAfterMs) {
                return; // an old event (a replay): this producer is not live
            }
            p = producers.computeIfAbsent(key, k -> new Producer(e.runId(), e.producerId()));
        }
        boolean back;
        synchronized (p) {
            p.lastEventAtMs = Math.max(p.lastEventAtMs, e.atEpochMs());
            if (e.stepIdOrNull() != null) {
                p.stepId = e.stepIdOrNull();
            }
            back = p.quiet && now - p.lastEventAtMs <= quietAfterMs;
            if (back) {
                p.quiet = false;
            }
        }
        if (back) {
            sender.send(producer(PRODUCER_BACK, p, now));
        }
    }

    /** Marks the live producers quiet whose last event is older than {@code quietAfter}. */
    void checkQuiet() {
        try {
            long now = nowMs.getAsLong();
            for (Producer p : producers.values()) {
                boolean quiet;
                synchronized (p) {
                    quiet = !p.quiet && now - p.lastEventAtMs > quietAfterMs;
                    if (quiet) {
                        p.quiet = true;
                    }
                }
                if (quiet) {
                    sender.send(producer(PRODUCER_QUIET, p, now));
                }
            }
        } catch (RuntimeException e) {
            log.warn("alert check failed: {}", e.toString());
        }
    }

    private ObjectNode producer(String type, Producer p, long now) {
        ObjectNode n = alert(type, p.runId);
        n.put("producerId", p.producerId);
        if (p.stepId != null) {
            n.put("stepId", p.stepId);
        }
        n.put("lastEventAtMs", p.lastEventAtMs);
        n.put("silentMs", now - p.lastEventAtMs);
        return n;
    }

    /** Alerts posted, given up and dropped so far. */
    WebhookSender.Counts counts() {
        return sender.counts();
    }

    /**
     * Exposes the counts as {@code tailstream_alerts_total{outcome}}: {@code posted}, {@code given_up} (failed past
     * its tries), {@code dropped} (the queue was full).
     */
    public void bindTo(io.micrometer.core.instrument.MeterRegistry registry) {
        Map<String, java.util.function.ToDoubleFunction<AlertWebhook>> outcomes = Map.of(
                "posted", w -> w.counts().posted(), "given_up", w -> w.counts().givenUp(),
                "dropped", w -> w.counts().dropped());
        outcomes.forEach((outcome, f) -> io.micrometer.core.instrument.FunctionCounter
                .builder("tailstream.alerts", this, f).description("Alerts to the webhook, by outcome")
                .tag("outcome", outcome).register(registry));
    }

    /** Stops watching; alerts already queued are still posted for up to {@code drain}. */
    public void close(Duration drain) {
        watch.shutdownNow();
        sender.close(drain);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
