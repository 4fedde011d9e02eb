package io.tailstream.aggregator;

import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the aggregator's output (committed records only) so a caller can wait until a run is aggregated: on
 * {@link Topics#WINDOWS} it adds up, per run and step, the {@code count} of the "all ops" base windows, until every
 * sample the producers sent is counted (roll-ups, which count the same samples again, are told apart by their length:
 * a step's base windows are its shortest); on {@link Topics#SUMMARIES} and {@link Topics#RUN_SUMMARIES} it notes which steps
 * have their "all ops" summary and the run's last run summary, until the run's summaries are published.
 *
 * <pre>{@code
 * try (AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
 *     progress.awaitCounts(runId, AggregationProgress.samplesSentByStep(runId, stepEndedEvents),
 *             Duration.ofSeconds(30));
 *     progress.awaitSummaries(runId, stepIds, Duration.ofSeconds(30));
 * }
 * }</pre>
 *
 * <p>Why both: a step's summary is published after its last window, by a later stage of the aggregator and in a
 * later transaction, so windows that count every sample do not mean the summaries are there yet.
 *
 * <p>Reads the topics from the beginning without a consumer group (nothing is committed). Not thread safe: one
 * thread polls.
 */
public final class AggregationProgress implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AggregationProgress.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Consumer<byte[], byte[]> consumer;
    /** run id → step id → window length in ms → samples and windows counted in "all ops" windows of that length. */
    private final Map<String, Map<Integer, NavigableMap<Long, long[]>>> counted = new HashMap<>();
    /** run id → steps with an "all ops" step summary. */
    private final Map<String, Set<Integer>> summarized = new HashMap<>();
    /** run id → its last run summary. */
    private final Map<String, RunSummary> runSummaries = new HashMap<>();

    /** Follows what {@code consumer} (assigned and positioned by the caller) reads. */
    AggregationProgress(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    /**
     * Opens a consumer on the windows, summaries and run summaries topics, positioned at their beginning.
     *
     * @param clientOverrides extra consumer properties (SASL, TLS, ...)
     */
    public static AggregationProgress open(String bootstrapServers, Map<String, String> clientOverrides) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-aggregation-progress");
        p.putAll(clientOverrides);
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.WINDOWS, Topics.SUMMARIES, Topics.RUN_SUMMARIES)) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos.isEmpty()) {
                    throw new IllegalStateException("topic " + topic + " does not exist at " + bootstrapServers);
                }
                for (PartitionInfo info : infos) {
                    partitions.add(new TopicPartition(info.topic(), info.partition()));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return new AggregationProgress(consumer);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /**
     * Samples sent per step of a run, summed over the run's producers from their {@link StepEnded} events.
     */
    public static Map<Integer, Long> samplesSentByStep(String runId, Collection<? extends ControlEvent> events) {
        Map<Integer, Long> sent = new TreeMap<>();
        for (ControlEvent e : events) {
            if (e instanceof StepEnded s && s.runId().equals(runId)) {
                sent.merge(s.stepId(), s.samplesSent(), Long::sum);
            }
        }
        return sent;
    }

    /** Reads what is available within {@code timeout} and updates the counts and the summaries seen. */
    public void poll(Duration timeout) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(timeout)) {
            if (r.value() == null) {
                continue;
            }
            try {
                switch (r.topic()) {
                    case Topics.WINDOWS -> addWindow(Json.read(r.value(), WindowStats.class));
                    case Topics.SUMMARIES -> addStepSummary(Json.read(r.value(), StepSummary.class));
                    case Topics.RUN_SUMMARIES -> addRunSummary(Json.read(r.value(), RunSummary.class));
                    default -> throw new IllegalStateException("not assigned: " + r.topic());
                }
            } catch (IllegalArgumentException e) {
                LOG.warn("skipping an unreadable record at {}-{} offset {}: {}", r.topic(), r.partition(),
                        r.offset(), e.getMessage());
            }
        }
    }

    private void addWindow(WindowStats w) {
        if (WindowStats.ALL_OPS.equals(w.op())) {
            long[] c = counted.computeIfAbsent(w.runId(), k -> new TreeMap<>())
                    .computeIfAbsent(w.stepId(), k -> new TreeMap<>())
                    .computeIfAbsent(w.windowEndEpochMs() - w.windowStartEpochMs(), k -> new long[2]);
            c[0] += w.count();
            c[1]++;
        }
    }

    private void addStepSummary(StepSummary s) {
        if (WindowStats.ALL_OPS.equals(s.op())) {
            summarized.computeIfAbsent(s.runId(), k -> new TreeSet<>()).add(s.stepId());
        }
    }

    private void addRunSummary(RunSummary s) {
        runSummaries.put(s.runId(), s);
    }

    /** Samples counted so far in "all ops" base windows of a step. */
    public long countedSamples(String runId, int stepId) {
        return base(runId, stepId)[0];
    }

    /** Samples and windows counted in the step's base windows, its shortest: zeros before the first. */
    private long[] base(String runId, int stepId) {
        NavigableMap<Long, long[]> byLength = counted.getOrDefault(runId, Map.of()).get(stepId);
        return byLength == null ? new long[2] : byLength.firstEntry().getValue();
    }

    /** Samples counted so far in "all ops" base windows of a run, over all its steps. */
    public long countedSamples(String runId) {
        return counted.getOrDefault(runId, Map.of()).keySet().stream().mapToLong(s -> countedSamples(runId, s)).sum();
    }

    /** Samples counted so far per step of a run (steps with at least one window). */
    public Map<Integer, Long> countedByStep(String runId) {
        Map<Integer, Long> out = new TreeMap<>();
        counted.getOrDefault(runId, Map.of()).keySet().forEach(s -> out.put(s, countedSamples(runId, s)));
        return Map.copyOf(out);
    }

    /** "All ops" base windows seen so far for a run (late corrections included). */
    public long windowsSeen(String runId) {
        return counted.getOrDefault(runId, Map.of()).keySet().stream().mapToLong(s -> base(runId, s)[1]).sum();
    }

    /**
     * Polls until, for every step in {@code expectedByStep}, the counted samples equal the expected ones.
     *
     * @throws AggregationIncompleteException at the timeout, or as soon as a step counts more than expected (double
     *                                        counting never heals); the message lists every step
     */
    public void awaitCounts(String runId, Map<Integer, Long> expectedByStep, Duration timeout)
            throws InterruptedException, AggregationIncompleteException {
        awaitCounts(runId, expectedByStep, timeout, false, counted -> { }, () -> true);
    }

    /**
     * Polls until, for every step in {@code expectedByStep}, the counted samples equal the expected ones, for as
     * long as the aggregator keeps counting: gives up only when {@code stallTimeout} passes without a new sample of
     * the run counted. For a backlog of any size, such as a run whose aggregation waited until its load ended.
     *
     * @param onCounted told the run's counted total each time it grows
     * @throws AggregationIncompleteException after {@code stallTimeout} without progress, or as soon as a step counts
     *                                        more than expected; the message lists every step
     */
    public void awaitCountsWhileCounting(String runId, Map<Integer, Long> expectedByStep, Duration stallTimeout,
                                         LongConsumer onCounted)
            throws InterruptedException, AggregationIncompleteException {
        awaitCounts(runId, expectedByStep, stallTimeout, true, onCounted, () -> true);
    }

    /**
     * {@link #awaitCountsWhileCounting(String, Map, Duration, LongConsumer)} for as long as {@code aggregating} says
     * the aggregator runs, asked before every poll: an aggregator of another process that has died counts nothing
     * more, and waiting out {@code stallTimeout} for it would only delay whoever takes over.
     *
     * @return true once every step is counted; false as soon as {@code aggregating} says no before that
     */
    public boolean awaitCountsWhileCounting(String runId, Map<Integer, Long> expectedByStep, Duration stallTimeout,
                                            LongConsumer onCounted, BooleanSupplier aggregating)
            throws InterruptedException, AggregationIncompleteException {
        return awaitCounts(runId, expectedByStep, stallTimeout, true, onCounted, aggregating);
    }

    private boolean awaitCounts(String runId, Map<Integer, Long> expectedByStep, Duration timeout,
                                boolean progressExtends, LongConsumer onCounted, BooleanSupplier aggregating)
            throws InterruptedException, AggregationIncompleteException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long countedBefore = 0;
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted while waiting for run " + runId + " to be aggregated");
            }
            // asked before the poll: whatever it committed before it stopped is read below, then it is asked again
            boolean stillAggregating = aggregating.getAsBoolean();
            poll(POLL);
            long countedNow = countedSamples(runId);
            if (countedNow > countedBefore) {
                countedBefore = countedNow;
                onCounted.accept(countedNow);
                if (progressExtends) {
                    deadline = System.nanoTime() + timeout.toNanos();
                }
            }
            boolean complete = true;
            boolean over = false;
            for (Map.Entry<Integer, Long> e : expectedByStep.entrySet()) {
                long c = countedSamples(runId, e.getKey());
                complete &= c == e.getValue();
                over |= c > e.getValue();
            }
            if (complete) {
                return true;
            }
            if (!over && !stillAggregating) {
                return false;
            }
            if (over || System.nanoTime() - deadline >= 0) {
                String why = describe(runId, expectedByStep, timeout, progressExtends, over);
                throw new AggregationIncompleteException(why, expectedByStep, countedByStep(runId));
            }
        }
    }

    /**
     * Polls until the run's summaries are published: an "all ops" step summary for each of {@code steps}, and a run
     * summary that says the run is complete (it ended, and every step that started has its summary).
     *
     * @return null once they are; else, at the timeout, what is missing
     */
    public String awaitSummaries(String runId, Collection<Integer> steps, Duration timeout)
            throws InterruptedException {
        return awaitSummaries(runId, steps, timeout, () -> true);
    }

    /**
     * {@link #awaitSummaries(String, Collection, Duration)} for as long as {@code aggregating} says the aggregator
     * runs, asked before every poll.
     *
     * @return null once they are published; else, at the timeout or once {@code aggregating} says no, what is missing
     */
    public String awaitSummaries(String runId, Collection<Integer> steps, Duration timeout,
                                 BooleanSupplier aggregating) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted while waiting for the summaries of run " + runId);
            }
            boolean stillAggregating = aggregating.getAsBoolean();
            poll(POLL);
            String missing = missingSummaries(runId, steps);
            if (missing == null) {
                return null;
            }
            if (!stillAggregating) {
                return "run " + runId + ": the aggregator stopped; " + missing;
            }
            if (System.nanoTime() - deadline >= 0) {
                return "run " + runId + ": after " + timeout.toMillis() + " ms " + missing;
            }
        }
    }

    /** What of the run's summaries has not been seen yet (see {@link #awaitSummaries}), or null. */
    public String missingSummaries(String runId, Collection<Integer> steps) {
        TreeSet<Integer> without = new TreeSet<>(steps);
        without.removeAll(summarized.getOrDefault(runId, Set.of()));
        RunSummary run = runSummaries.get(runId);
        if (without.isEmpty() && run != null && run.complete()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        if (!without.isEmpty()) {
            parts.add("no summary for step(s) " + without);
        }
        if (run == null) {
            parts.add("no run summary");
        } else if (!run.complete()) {
            parts.add("the run summary is not complete (steps pending: " + run.stepsPending() + ")");
        }
        return String.join("; ", parts);
    }

    private String describe(String runId, Map<Integer, Long> expectedByStep, Duration timeout,
                            boolean sinceProgress, boolean over) {
        StringBuilder sb = new StringBuilder();
        sb.append("run ").append(runId).append(over ? ": more samples counted than sent (double counting)"
                : " not fully aggregated " + (sinceProgress ? "(nothing counted for " + timeout.toMillis() + " ms)"
                : "after " + timeout.toMillis() + " ms")).append(':');
        TreeSet<Integer> steps = new TreeSet<>(expectedByStep.keySet());
        steps.addAll(countedByStep(runId).keySet());
        for (int step : steps) {
            long expected = expectedByStep.getOrDefault(step, 0L);
            long c = countedSamples(runId, step);
            sb.append(" step ").append(step).append(" counted ").append(c).append(" of ").append(expected);
            if (c != expected) {
                sb.append(c < expected ? " (missing " + (expected - c) + ")" : " (extra " + (c - expected) + ")");
            }
            sb.append(';');
        }
        sb.append(" windows seen for the run: ").append(windowsSeen(runId));
        return sb.toString();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
