package io.tailstream.aggregator.http;

import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the live page's view after the aggregator (re)starts: reads what the aggregator published in the last
 * {@code span} (committed records of {@link Topics#WINDOWS}, {@link Topics#STALLS} and {@link Topics#CONTROL}, up to
 * their end when the replay starts) into a {@link TopologyListener}, as the topology would have called it: base
 * windows ({@code baseWindowMs} long) to {@link TopologyListener#onWindow}, longer ones (roll-ups) to
 * {@link TopologyListener#onRollup}. So a page reloaded after a restart shows the whole run so far again.
 *
 * <p>Run before the aggregator starts: what it emits afterwards is later than what was replayed, as the live
 * view's soak figures need ({@link StepTimeline}). Unreadable records are skipped and counted (the aggregator
 * itself dead-letters the control records it cannot read). Memory: one poll's records at a time.
 */
public final class LiveReplay {

    /** How far back the replay reads by default: a day, twice the longest soak the live view keeps at 10 s. */
    public static final Duration DEFAULT_SPAN = Duration.ofHours(24);

    private static final Logger LOG = LoggerFactory.getLogger(LiveReplay.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

    /** What a replay read: records replayed and skipped, and how long it took. */
    public record Result(long records, long skipped, Duration took) {}

    private LiveReplay() {}

    /**
     * Replays the last {@code span} into {@code into}.
     *
     * @param clientConfig extra consumer properties (SASL, TLS, ...)
     * @param progress     told a line every 10 s while it takes longer
     */
    public static Result replay(String bootstrapServers, Map<String, Object> clientConfig, Duration span,
                                long baseWindowMs, TopologyListener into, Consumer<String> progress) {
        long started = System.nanoTime();
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-live-replay");
        p.putAll(clientConfig);
        long records = 0;
        long skipped = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.CONTROL, Topics.WINDOWS, Topics.STALLS)) {
                for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(info.topic(), info.partition()));
                }
            }
            consumer.assign(partitions);
            Map<TopicPartition, Long> since = new HashMap<>();
            long from = System.currentTimeMillis() - span.toMillis();
            partitions.forEach(tp -> since.put(tp, from));
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(since);
            Map<TopicPartition, Long> remaining = new HashMap<>();
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp at = start.get(tp);
                long first = at == null ? end.get(tp) : at.offset();
                consumer.seek(tp, first);
                if (first < end.get(tp)) {
                    remaining.put(tp, end.get(tp));
                }
            }
            long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            while (!remaining.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                    if (dispatch(r, baseWindowMs, into)) {
                        records++;
                    } else {
                        skipped++;
                    }
                }
                // a transaction's marker takes an offset the consumer never returns: compare positions, not records
                remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
                if (System.nanoTime() - nextProgress > 0) {
                    progress.accept(String.format(java.util.Locale.ROOT, "%,d records replayed, %d partitions to go",
                            records, remaining.size()));
                    nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
                }
            }
        }
        return new Result(records, skipped, Duration.ofNanos(System.nanoTime() - started));
    }

    /** Calls {@code into} for one record; false if it was unreadable or empty. */
    private static boolean dispatch(ConsumerRecord<byte[], byte[]> r, long baseWindowMs, TopologyListener into) {
        if (r.value() == null) {
            return false;
        }
        try {
            switch (r.topic()) {
                case Topics.WINDOWS -> {
                    WindowStats w = Json.read(r.value(), WindowStats.class);
                    if (w == null) {
                        return false;
                    }
                    if (w.windowEndEpochMs() - w.windowStartEpochMs() == baseWindowMs) {
                        into.onWindow(w);
                    } else {
                        into.onRollup(w);
                    }
                }
                case Topics.STALLS -> {
                    StallEvent stall = Json.read(r.value(), StallEvent.class);
                    if (stall == null) {
                        return false;
                    }
                    into.onStall(stall);
                }
                case Topics.CONTROL -> {
                    ControlEvent e = Json.read(r.value(), ControlEvent.class);
                    if (e == null || e.runId() == null || e.runId().isEmpty()) {
                        return false;
                    }
                    into.onControl(e);
                }
                default -> throw new IllegalStateException("not assigned: " + r.topic());
            }
            return true;
        } catch (IllegalArgumentException e) {
            LOG.debug("replay skips an unreadable record at {}-{} offset {}: {}", r.topic(), r.partition(),
                    r.offset(), e.getMessage());
            return false;
        }
    }
}
