package io.tailstream.aggregator;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * What a running aggregator is doing, for the console, {@code /metrics} and the live page: the Kafka Streams
 * lifecycle seen as {@link Phase}s (starting, waiting for its partitions, restoring its state stores from their
 * changelogs, running, caught up), with the restoration's progress. A restarted aggregator restores every store from
 * its changelog (the stores are in memory) before it processes anything, which takes a while after a long run: these
 * lines say so instead of a silent console and an empty page.
 *
 * <p>Each change of phase, and the restoration's progress at most every {@link #PROGRESS_INTERVAL}, is given as one
 * line to the sink passed to the constructor. Caught up is the first moment after a start at which the consumer lag
 * of every input partition of this instance's tasks is 0 (the consumer's {@code records-lag} metrics, read by
 * {@link #checkCaughtUp(KafkaStreams)}); it is reported once per start.
 *
 * <p>Thread safe: Kafka Streams calls the restore listener from its threads, the state listener from others.
 */
public final class AggregatorStatus implements StateRestoreListener {

    /** Most often a restoration progress line is given. */
    public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(3);

    /** The aggregator's lifecycle as shown; {@link #label()} is the value of the {@code state} metric tag. */
    public enum Phase {
        /** Created, Kafka Streams not started yet. */
        STARTING,
        /** Started, waiting for the group to assign partitions (a rebalance). */
        WAITING_FOR_ASSIGNMENT,
        /** Restoring state stores from their changelogs; nothing is processed meanwhile. */
        RESTORING,
        /** Processing its input; the backlog is not read to its end yet. */
        RUNNING,
        /** Processing, and its input lag reached 0 once since the start. */
        CAUGHT_UP,
        /** Stopped (closed or failed). */
        STOPPED;

        /** Lower case, as in the metric tag and the page. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One state store partition being restored: offsets of its changelog. */
    private record Restore(String store, long startOffset, long endOffset, long restored) {
        long remaining() {
            return Math.max(0, endOffset - startOffset - restored);
        }
    }

    private final Consumer<String> lines;
    private final LongSupplier clockMs;
    private final Map<TopicPartition, Restore> restoring = new HashMap<>();
    private Phase phase = Phase.STARTING;
    private KafkaStreams.State streamsState = KafkaStreams.State.CREATED;
    private boolean caughtUp;
    private long restoredTotal;
    private long restoreStartedMs = -1;
    private long lastProgressMs;
    private long restoredThisRound;
    private long totalThisRound;
    /**
     * Stores were restored since the last rebalance began: the phase stays restoring until Kafka Streams runs (its
     * tasks restore one after the other, with nothing to restore for a moment in between).
     */
    private boolean restoreRound;

    /** @param lines where each status line goes (the console, a log) */
    public AggregatorStatus(Consumer<String> lines) {
        this(lines, System::currentTimeMillis);
    }

    AggregatorStatus(Consumer<String> lines, LongSupplier clockMs) {
        this.lines = Objects.requireNonNull(lines, "lines");
        this.clockMs = clockMs;
    }

    /** The current phase. */
    public synchronized Phase phase() {
        return phase;
    }

    /** Changelog records still to restore (offsets, so transaction markers included): 0 unless restoring. */
    public synchronized long restoreRecordsRemaining() {
        return restoring.values().stream().mapToLong(Restore::remaining).sum();
    }

    /** Records restored since the start. */
    public synchronized long restoredRecords() {
        return restoredTotal;
    }

    /** A one-line description of the phase, as the live page shows it. */
    public synchronized String line() {
        return switch (phase) {
            case STARTING -> "starting";
            case WAITING_FOR_ASSIGNMENT -> "waiting for partition assignment";
            case RESTORING -> restoring.isEmpty() ? "restoring state stores" : progressText();
            case RUNNING -> "running, reading its input backlog";
            case CAUGHT_UP -> "running, caught up (input lag reached 0)";
            case STOPPED -> "stopped";
        };
    }

    /** Phase, line and restore figures, for the live page's JSON. */
    public synchronized Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", phase.label());
        m.put("line", line());
        m.put("restoreRecordsRemaining", restoreRecordsRemaining());
        m.put("restoredRecords", restoredTotal);
        m.put("caughtUp", caughtUp);
        return m;
    }

    /**
     * Registers the gauges: {@code tailstream_aggregator_state{state}} (1 for the current phase, 0 for the others),
     * {@code tailstream_aggregator_restore_records_remaining} and {@code tailstream_aggregator_restored_records}.
     */
    public void bindTo(MeterRegistry registry) {
        for (Phase p : Phase.values()) {
            Gauge.builder("tailstream.aggregator.state", this, s -> s.phase() == p ? 1 : 0)
                    .description("1 for the aggregator's current lifecycle state, 0 for the others")
                    .tag("state", p.label()).register(registry);
        }
        Gauge.builder("tailstream.aggregator.restore.records.remaining", this,
                        AggregatorStatus::restoreRecordsRemaining)
                .description("Changelog records still to restore into the state stores (offsets)").register(registry);
        Gauge.builder("tailstream.aggregator.restored.records", this, AggregatorStatus::restoredRecords)
                .description("Changelog records restored into the state stores since the start").register(registry);
    }

    /** The aggregator is starting: gives the first line. */
    public synchronized void starting(String description) {
        lines.accept("starting " + description);
    }

    /** Kafka Streams changed state (its state listener). */
    public synchronized void onStreamsState(KafkaStreams.State state) {
        streamsState = state;
        update();
    }

    @Override
    public synchronized void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {
        if (!restoreRound) {
            restoreRound = true;
            restoreStartedMs = clockMs.getAsLong();
            lastProgressMs = restoreStartedMs;
            restoredThisRound = 0;
            totalThisRound = 0;
        }
        totalThisRound += Math.max(0, endOffset - startOffset);
        restoring.put(partition, new Restore(store, startOffset, endOffset, 0));
        update();
        if (endOffset > startOffset) {
            lines.accept(String.format(Locale.ROOT, "restoring state store %s (changelog %s): %,d records",
                    store, partition, endOffset - startOffset));
        }
    }

    @Override
    public synchronized void onBatchRestored(TopicPartition partition, String store, long batchEndOffset,
                                             long numRestored) {
        Restore r = restoring.get(partition);
        if (r != null) {
            restoring.put(partition, new Restore(r.store(), r.startOffset(), r.endOffset(), r.restored() + numRestored));
        }
        restoredTotal += numRestored;
        restoredThisRound += numRestored;
        long now = clockMs.getAsLong();
        if (phase == Phase.RESTORING && now - lastProgressMs >= PROGRESS_INTERVAL.toMillis()) {
            lastProgressMs = now;
            lines.accept(progressText());
        }
    }

    @Override
    public synchronized void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        restoring.remove(partition);
        update();
    }

    @Override
    public synchronized void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        restoring.remove(partition); // its task went to another instance
        update();
    }

    /**
     * Reports caught up once the consumer lag of every input partition of this instance's active tasks is 0; call
     * it periodically while running (cheap: reads the client's metrics).
     *
     * @return true once caught up since the start
     */
    public boolean checkCaughtUp(KafkaStreams streams) {
        synchronized (this) {
            if (caughtUp) {
                return true;
            }
            if (phase != Phase.RUNNING) {
                return false;
            }
        }
        Set<String> inputs = new TreeSet<>();
        for (ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                for (TopicPartition tp : task.topicPartitions()) {
                    // fetched is not processed: the task must also have committed up to the end it saw
                    Long committed = task.committedOffsets().get(tp);
                    Long end = task.endOffsets().get(tp);
                    if (committed == null || end == null || committed < end) {
                        return false;
                    }
                    inputs.add(metricTopic(tp.topic()) + "-" + tp.partition());
                }
            }
        }
        if (inputs.isEmpty()) {
            return false;
        }
        Map<String, Double> lags = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName n = e.getKey();
            String client = n.tags().getOrDefault("client-id", "");
            if (!"records-lag".equals(n.name()) || !n.tags().containsKey("partition")
                    || client.endsWith("restore-consumer")) {
                continue;
            }
            Object v = e.getValue().metricValue();
            if (v instanceof Number num) {
                lags.put(metricTopic(n.tags().get("topic")) + "-" + n.tags().get("partition"), num.doubleValue());
            }
        }
        for (String tp : inputs) {
            Double lag = lags.get(tp);
            if (lag == null || lag.isNaN() || lag > 0) {
                return false;
            }
        }
        synchronized (this) {
            if (!caughtUp && phase == Phase.RUNNING) {
                caughtUp = true;
                update();
            }
            return caughtUp;
        }
    }

    /** The consumer's metric tags write a topic's dots as underscores. */
    private static String metricTopic(String topic) {
        return topic.replace('.', '_');
    }

    private void update() {
        Phase next;
        if (streamsState == KafkaStreams.State.NOT_RUNNING || streamsState == KafkaStreams.State.PENDING_SHUTDOWN
                || streamsState == KafkaStreams.State.ERROR || streamsState == KafkaStreams.State.PENDING_ERROR) {
            next = Phase.STOPPED;
        } else if (!restoring.isEmpty() || (restoreRound && streamsState != KafkaStreams.State.RUNNING)) {
            next = Phase.RESTORING;
        } else if (streamsState == KafkaStreams.State.RUNNING) {
            next = caughtUp ? Phase.CAUGHT_UP : Phase.RUNNING;
        } else if (streamsState == KafkaStreams.State.REBALANCING) {
            next = Phase.WAITING_FOR_ASSIGNMENT;
        } else {
            next = Phase.STARTING;
        }
        if (phase == Phase.RESTORING && next != Phase.RESTORING) {
            restoreRound = false;
            lines.accept(restoredThisRound == 0 ? "state stores ready: nothing to restore"
                    : String.format(Locale.ROOT, "state stores restored: %,d records in %.1f s", restoredThisRound,
                            (clockMs.getAsLong() - restoreStartedMs) / 1000.0));
        }
        if (next != phase) {
            phase = next;
            lines.accept(next == Phase.RESTORING ? "restoring state stores from their changelogs" : line());
        }
    }

    /** Restored of to restore since the restoration began (changelog offsets), and the stores still restoring. */
    private String progressText() {
        Set<String> stores = new TreeSet<>();
        for (Restore r : restoring.values()) {
            stores.add(r.store());
        }
        return String.format(Locale.ROOT, "restoring state stores: %,d of %,d records restored, %,d to go (%s)",
                restoredThisRound, totalThisRound, restoreRecordsRemaining(), String.join(", ", stores));
    }
}
