package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.CorruptBlockException;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.WindowStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 1: decodes each sample block into partials keyed by scope ({@code runId/stepId/op}) with the window start
 * as record timestamp. Sample blocks give one partial per (window, op) plus "all ops"; heartbeats give an empty
 * partial per op of the step plus "all ops" in the heartbeat's window; end-of-step markers are remembered in a store
 * and turned into ticks by a wall-clock punctuation once the step's last window may close. Undecodable blocks are
 * forwarded as dead letters.
 *
 * <p>Not thread safe: Kafka Streams gives each task its own instance.
 */
final class BlockDecodeProcessor implements Processor<byte[], byte[], String, StageOne> {

    private static final Logger LOG = LoggerFactory.getLogger(BlockDecodeProcessor.class);

    private final long windowSizeMs;
    private final long graceMs;
    private final Duration endOfStepCheckInterval;
    private final String pendingStoreName;
    private final BlockPartials partials;
    private ProcessorContext<String, StageOne> context;
    private KeyValueStore<String, PendingStepEnd> pending;

    BlockDecodeProcessor(long windowSizeMs, long graceMs, Duration endOfStepCheckInterval, String pendingStoreName) {
        this.windowSizeMs = windowSizeMs;
        this.graceMs = graceMs;
        this.endOfStepCheckInterval = endOfStepCheckInterval;
        this.pendingStoreName = pendingStoreName;
        this.partials = new BlockPartials(windowSizeMs);
    }

    @Override
    public void init(ProcessorContext<String, StageOne> ctx) {
        this.context = ctx;
        this.pending = ctx.getStateStore(pendingStoreName);
        ctx.schedule(endOfStepCheckInterval, PunctuationType.WALL_CLOCK_TIME, this::sendDueTicks);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        BlockHeader header;
        try {
            partials.begin();
            header = SampleBlockDecoder.decode(record.value(), partials);
        } catch (CorruptBlockException e) {
            deadLetter(record, e.getMessage());
            return;
        }
        if (header.heartbeat()) {
            long windowStart = windowStart(Math.floorDiv(header.sealedAtEpochMicros(), 1000L));
            for (String op : header.ops()) {
                forward(windowStart, WindowAggregate.heartbeat(header.runId(), header.stepId(), op));
            }
            forward(windowStart, WindowAggregate.heartbeat(header.runId(), header.stepId(), WindowStats.ALL_OPS));
        } else if (header.endOfStep()) {
            rememberStepEnd(header);
        } else {
            partials.emit(header, this::forward);
        }
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
        if (previous == null || previous.tickAtEpochMs() < tickAt) {
            List<String> ops = header.ops();
            pending.put(key, new PendingStepEnd(header.runId(), header.stepId(), ops, tickAt));
        }
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
        for (KeyValue<String, PendingStepEnd> kv : due) {
            PendingStepEnd end = kv.value;
            for (String op : end.ops()) {
                forward(end.tickAtEpochMs(), WindowAggregate.tick(end.runId(), end.stepId(), op));
            }
            forward(end.tickAtEpochMs(), WindowAggregate.tick(end.runId(), end.stepId(), WindowStats.ALL_OPS));
            pending.delete(kv.key);
            LOG.debug("end of step {}: ticks at {} sent", kv.key, end.tickAtEpochMs());
        }
    }

    private void deadLetter(Record<byte[], byte[]> record, String reason) {
        Headers headers = new RecordHeaders(record.headers().toArray());
        String topic = "";
        String partition = "";
        String offset = "";
        if (context.recordMetadata().isPresent()) {
            RecordMetadata m = context.recordMetadata().get();
            topic = m.topic();
            partition = String.valueOf(m.partition());
            offset = String.valueOf(m.offset());
        }
        headers.add(DeadLetters.REASON, utf8(reason));
        headers.add(DeadLetters.TOPIC, utf8(topic));
        headers.add(DeadLetters.PARTITION, utf8(partition));
        headers.add(DeadLetters.OFFSET, utf8(offset));
        LOG.warn("corrupt sample block at {}-{} offset {} sent to the dead-letter topic: {}", topic, partition, offset,
                reason);
        context.forward(new Record<String, StageOne>(null, new StageOne.DeadLetter(record.key(), record.value()),
                record.timestamp(), headers));
    }

    private long windowStart(long epochMs) {
        return epochMs - Math.floorMod(epochMs, windowSizeMs);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
