package io.tailstream.producer.group;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ProducerReady;
import io.tailstream.schemas.event.StepGo;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@link StepCoordinator} over the control topic: publishes this producer's {@link ProducerReady} for a step, reads
 * the run's control events in topic order into a {@link StepAgreement}, and, when the join timeout passes first,
 * publishes a {@link StepGo} with the producers ready so far. Reading starts {@link #LOOKBACK} plus the join timeout
 * before the coordinator was created, so the events of producers started earlier are seen.
 *
 * <p>Used by one thread.
 */
public final class KafkaStepCoordinator implements StepCoordinator {

    /** How far before its creation the coordinator reads the control topic, beyond the join timeout. */
    static final Duration LOOKBACK = Duration.ofHours(1);
    /** How long a step may stay undecided after this producer's own {@code StepGo}: the topic is not readable. */
    static final Duration DECISION_LIMIT = Duration.ofMinutes(2);
    /** When the waiting line is printed first, and then how often. */
    static final Duration WAIT_LINE = Duration.ofSeconds(10);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final byte[] runKey;
    private final String runId;
    private final String producerId;
    private final String host;
    private final ProducerGroup group;
    private final StepAgreement agreement;
    private final Consumer<ControlEvent> publish;
    private final Clock clock;
    private final PrintStream console;

    /**
     * @param kafkaConfig further client settings (security); the coordinator sets its own deserializers, no group
     * @param publish     sends a control event of this producer (the run's ordered control path)
     */
    public KafkaStepCoordinator(String bootstrapServers, Map<String, Object> kafkaConfig, String runId,
                                String producerId, String host, ProducerGroup group, Consumer<ControlEvent> publish,
                                Clock clock, PrintStream console) {
        this.runId = runId;
        this.runKey = runId.getBytes(StandardCharsets.UTF_8);
        this.producerId = producerId;
        this.host = host;
        this.group = group;
        this.agreement = new StepAgreement(group.count());
        this.publish = publish;
        this.clock = clock;
        this.console = console;
        Map<String, Object> cfg = new HashMap<>(kafkaConfig == null ? Map.of() : kafkaConfig);
        cfg.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        cfg.put(ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-coordination-" + producerId);
        cfg.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        cfg.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cfg.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        cfg.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(cfg);
        try {
            List<PartitionInfo> infos = consumer.partitionsFor(Topics.CONTROL, Duration.ofSeconds(60));
            if (infos == null || infos.isEmpty()) {
                throw new GroupException("topic " + Topics.CONTROL + " does not exist at " + bootstrapServers);
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            long from = clock.epochMicros() / 1000 - LOOKBACK.toMillis() - group.joinTimeout().toMillis();
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, from));
            Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(query, Duration.ofSeconds(60));
            // the end as it is now, not at the first poll (seekToEnd is lazy): this producer's own events follow
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(60));
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp at = offsets.get(tp);
                consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
            }
        } catch (KafkaException e) {
            consumer.close(Duration.ZERO);
            throw new GroupException("cannot read topic " + Topics.CONTROL + " at " + bootstrapServers
                    + " to agree on step starts with the other producers: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            consumer.close(Duration.ZERO);
            throw e;
        }
    }

    @Override
    public Start awaitStart(int stepId, int threads, BooleanSupplier stopped) {
        long readyAt = nowMs();
        publish.accept(new ProducerReady(runId, readyAt, producerId, stepId, group.count(), threads,
                group.splitThreads(), host));
        long nextLine = readyAt + WAIT_LINE.toMillis();
        long goSentAt = -1;
        while (true) {
            if (stopped.getAsBoolean()) {
                return Start.skip("stopped while waiting for the other producers");
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                if (r.key() != null && Arrays.equals(r.key(), runKey)) {
                    read(r, stepId, threads);
                }
            }
            StepAgreement.Agreed agreed = agreement.decided(stepId).orElse(null);
            if (agreed != null) {
                return start(stepId, threads, agreed);
            }
            long now = nowMs();
            if (goSentAt < 0 && now - readyAt >= group.joinTimeout().toMillis()) {
                StepGo go = agreement.timeoutGo(runId, producerId, stepId, now);
                console.printf(Locale.ROOT, "== step %d: %d of %d producers ready after %s; starting without %s%n",
                        stepId, go.participants().size(), group.count(), human(group.joinTimeout()),
                        missing(go));
                publish.accept(go);
                goSentAt = now;
            } else if (goSentAt >= 0 && now - goSentAt >= DECISION_LIMIT.toMillis()) {
                throw new GroupException("step " + stepId + " of run " + runId + " was not decided "
                        + DECISION_LIMIT.toSeconds() + " s after this producer's step_go: topic " + Topics.CONTROL
                        + " is not readable");
            } else if (now >= nextLine) {
                List<String> ready = agreement.ready(stepId);
                console.printf(Locale.ROOT, "== step %d: waiting for the other producers, %d of %d ready (%s);"
                        + " starting without the others in %s%n", stepId, ready.size(), group.count(),
                        String.join(", ", ready), human(Duration.ofMillis(readyAt + group.joinTimeout().toMillis()
                                - now)));
                nextLine = now + WAIT_LINE.toMillis();
            }
        }
    }

    private void read(ConsumerRecord<byte[], byte[]> r, int stepId, int threads) {
        ControlEvent event;
        try {
            event = Json.read(r.value(), ControlEvent.class);
        } catch (IllegalArgumentException e) {
            return; // not ours to judge: the aggregator dead-letters it
        }
        if (event instanceof ProducerReady p && !p.producerId().equals(producerId)) {
            if (p.expectedProducers() != group.count() || p.splitThreads() != group.splitThreads()
                    || (p.stepId() == stepId && p.threads() != threads)) {
                throw new GroupException("producer " + p.producerId() + " (" + p.host() + ") runs run " + runId
                        + " with " + describe(p.expectedProducers(), p.splitThreads(), p.stepId(), p.threads())
                        + ", this one with " + describe(group.count(), group.splitThreads(), stepId, threads)
                        + ": start every producer of a run with the same plan and --producers");
            }
        }
        agreement.accept(event);
    }

    private static String describe(int producers, boolean split, int stepId, int threads) {
        return producers + " producers, threads " + (split ? "split" : "each") + ", step " + stepId + " at "
                + threads + " threads";
    }

    private Start start(int stepId, int threads, StepAgreement.Agreed agreed) {
        if (!agreed.participants().contains(producerId)) {
            return Start.skip("step " + stepId + " started without this producer (its producers: "
                    + String.join(", ", agreed.participants()) + ")");
        }
        return group.start(stepId, threads, agreed, producerId);
    }

    private static String missing(StepGo go) {
        String known = go.missing().isEmpty() ? "" : String.join(", ", go.missing());
        String unseen = go.unseen() == 0 ? "" : go.unseen() + " producer(s) never seen";
        return known.isEmpty() ? unseen : unseen.isEmpty() ? known : known + " and " + unseen;
    }

    private static String human(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s >= 60 && s % 60 == 0 ? s / 60 + " min" : s + " s";
    }

    private long nowMs() {
        return clock.epochMicros() / 1000;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
