package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.CorruptBlockException;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.WindowStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 1: decodes each sample block into partials keyed by scope ({@code runId/stepId/op}) with the window start
 * as record timestamp. Blocks are combined in heap ({@link PartialCombiner}) and the combined partials are sent when
 * the task prepares a commit ({@link PreCommitHook}), so the records crossing the repartition topic grow with the
 * windows and scopes touched per commit, not with the samples. Sample blocks count per (window, op) plus "all ops";
 * heartbeats count as alive in the heartbeat's window for each op of the step plus "all ops"; end-of-step markers
 * are remembered in a store and turned into ticks by a wall-clock punctuation once the step's last window may
 * close — but only on the producer's home partition (the one carrying its data and heartbeats, where the marker
 * follows the producer's last block); marker copies on other partitions are only counted as received blocks.
 * Undecodable blocks are forwarded as dead letters.
 *
 * <p>Not thread safe: Kafka Streams gives each task its own instance.
 */
final class BlockDecodeProcessor implements Processor<byte[], byte[], String, StageOne> {

    private static final Logger LOG = LoggerFactory.getLogger(BlockDecodeProcessor.class);

    private final long windowSizeMs;
    private final long graceMs;
    private final Duration endOfStepCheckInterval;
    private final String pendingStoreName;
    private final String homeStoreName;
    private final String hookStoreName;
    /** {@code runId/producerId} of producers whose data or heartbeats this task's partition carries (heap mirror). */
    private final Set<String> homeProducers = new HashSet<>();
    private KeyValueStore<String, Boolean> homes;
    private final PartialCombiner combined;
    private final TopologyListener listener;
    private ProcessorContext<String, StageOne> context;
    private KeyValueStore<String, PendingStepEnd> pending;

    BlockDecodeProcessor(long windowSizeMs, long graceMs, Duration endOfStepCheckInterval, String pendingStoreName,
                         String homeStoreName, String hookStoreName, int maxCombinedPartials,
                         TopologyListener listener) {
        this.listener = listener;
        this.windowSizeMs = windowSizeMs;
        this.graceMs = graceMs;
        this.endOfStepCheckInterval = endOfStepCheckInterval;
        this.pendingStoreName = pendingStoreName;
        this.homeStoreName = homeStoreName;
        this.hookStoreName = hookStoreName;
        this.combined = new PartialCombiner(windowSizeMs, maxCombinedPartials);
    }

    @Override
    public void init(ProcessorContext<String, StageOne> ctx) {
        this.context = ctx;
        this.pending = ctx.getStateStore(pendingStoreName);
        this.homes = ctx.getStateStore(homeStoreName);
        homeProducers.clear();
        try (KeyValueIterator<String, Boolean> it = homes.all()) {
            while (it.hasNext()) {
                homeProducers.add(it.next().key);
            }
        }
        // the combiner is empty here: on a clean hand-over it was flushed by the last commit, after a crash its
        // content was never committed and the input it came from is read again
        PreCommitHook hook = ctx.getStateStore(hookStoreName);
        hook.onCommit(ctx, this::flushCombined);
        ctx.schedule(endOfStepCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::sendDueTicks);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        BlockHeader header;
        try {
            header = SampleBlockDecoder.decode(record.value(), combined.stage());
        } catch (RuntimeException e) {
            // the decoder only reads the bytes into the staging arrays: anything it throws is about the block
            deadLetter(record, DeadLetters.blockReason(e), e instanceof CorruptBlockException ? e.getMessage()
                    : "undecodable block: " + e);
            return;
        }
        String producerKey = header.runId() + "/" + header.producerId();
        if (!header.endOfStep() && homeProducers.add(producerKey)) {
            homes.put(producerKey, Boolean.TRUE);
        }
        long sealedWindow = windowStart(Math.floorDiv(header.sealedAtEpochMicros(), 1000L));
        if (header.endOfStep() && !homeProducers.contains(producerKey)) {
            // a marker copy on a partition the producer sends nothing else to: counted as received, but it must not
            // end the step here, where it may overtake the producer's data still being processed on its own
            // partition (see the package documentation)
            combined.addBlocks(header.runId(), header.stepId(), sealedWindow, 1);
        } else if (header.heartbeat()) {
            combined.addHeartbeat(header.runId(), header.producerId(), header.stepId(), header.ops(), sealedWindow);
        } else if (header.endOfStep()) {
            rememberStepEnd(header);
        } else if (combined.stagedSamples()) {
            combined.addStaged(header);
        } else {
            // a data block without samples still counts as received (block-sequence accounting)
            combined.addBlocks(header.runId(), header.stepId(), sealedWindow, 1);
        }
        if (combined.full()) {
            flushCombined();
        }
    }

    /** Sends the combined partials (at commit, before ticks, or when the combiner is full). */
    private void flushCombined() {
        combined.flush(this::forward);
    }

    private void forward(long windowStartEpochMs, WindowAggregate partial) {
        context.forward(new Record<>(partial.scopeKey(), new StageOne.Partial(partial), windowStartEpochMs));
    }

    /**
     * The producer sealed its last block of the step at {@code sealedAt}: all its samples completed in the marker's
     * window or before. Ticks at that window's end plus grace close it; they are held back until the wall clock
     * gets there, because stream time is shared by every scope of the partition: a tick sent right away would put
     * stream time seconds ahead of the samples still arriving from other producers and other steps, and close
     * their open windows early.
     */
    private void rememberStepEnd(BlockHeader header) {
        long markerWindow = windowStart(Math.floorDiv(header.sealedAtEpochMicros(), 1000L));
        long tickAt = markerWindow + windowSizeMs + graceMs;
        String key = header.runId() + "/" + header.stepId();
        PendingStepEnd previous = pending.get(key);
        long markers = previous == null ? 1 : previous.markers() + 1;
        long at = previous == null ? tickAt : Math.max(previous.tickAtEpochMs(), tickAt);
        Set<String> producers = new TreeSet<>(previous == null ? List.of() : previous.producers());
        producers.add(header.producerId());
        pending.put(key, new PendingStepEnd(header.runId(), header.stepId(), header.ops(), at, markers,
                List.copyOf(producers)));
    }

    private void sendDueTicks(long wallClockMs) {
        List<KeyValue<String, PendingStepEnd>> due = new ArrayList<>();
        try (KeyValueIterator<String, PendingStepEnd> it = pending.all()) {
            while (it.hasNext()) {
                KeyValue<String, PendingStepEnd> kv = it.next();
                if (kv.value.tickAtEpochMs() <= wallClockMs) {
                    due.add(kv);
                }
            }
        }
        if (!due.isEmpty()) {
            flushCombined(); // a tick must not overtake partials of its step still in the combiner
        }
        for (KeyValue<String, PendingStepEnd> kv : due) {
            PendingStepEnd end = kv.value;
            Set<String> producers = new TreeSet<>(end.producers());
            for (String op : end.ops()) {
                forward(end.tickAtEpochMs(), WindowAggregate.tick(end.runId(), end.stepId(), op, producers));
            }
            forward(end.tickAtEpochMs(), WindowAggregate.tick(end.runId(), end.stepId(), WindowStats.ALL_OPS,
                    producers).addBlocks(end.markers()));
            pending.delete(kv.key);
            LOG.debug("end of step {}: ticks at {} sent", kv.key, end.tickAtEpochMs());
        }
    }

    private void deadLetter(Record<byte[], byte[]> record, String code, String reason) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        LOG.warn("corrupt sample block at {} (key '{}') sent to the dead-letter topic: {}: {}",
                DeadLetters.where(context), key, code, reason);
        listener.onDeadLetter(context.recordMetadata().map(m -> m.topic()).orElse(""), code, DeadLetters.runId(key));
        context.forward(new Record<String, StageOne>(null, new StageOne.DeadLetter(record.key(), record.value(),
                DeadLetters.runId(key), code),
                record.timestamp(), DeadLetters.headers(record.headers(), context, code, reason)));
    }

    private long windowStart(long epochMs) {
        return epochMs - Math.floorMod(epochMs, windowSizeMs);
    }

}
