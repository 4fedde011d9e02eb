package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.step.StepInput;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 2: merges partials (key scope, timestamp window start) into tumbling windows of a change-logged window
 * store and emits each window once when stream time passes its end plus grace. It does what a DSL windowed aggregate
 * would, except that nothing is lost silently:
 * <ul>
 *   <li>A partial for a window that is already closed is <em>late</em>. It is not dropped: it is emitted at once as a
 *       <em>late correction</em>, a window record of the same scope and window holding only the late samples, with
 *       {@code lateCount == count}. Consumers that add up counts or merge histograms per window get every sample;
 *       the step summary adds the late samples to its {@code lateCount}. Why a correction rather than only a counter
 *       in the summary: the windows then still account for every sample sent (the pipeline's sent = aggregated
 *       proof holds), and a correction is visible in the window series where the lateness happened.</li>
 *   <li>End-of-step ticks are not stored and do not move stream time. A tick names the producers whose end it
 *       carries; the scope's last windows close (see {@link #closeScope}) once every producer whose blocks the scope
 *       received has ended, so a step's windows stay open while any of its producers still feeds them, or when
 *       {@code producerWait} (wall clock) has passed since the first producer's tick (a producer killed before its
 *       end). Then an {@link StepInput#END} record tells stage 3 the scope's last window is out. A tick without
 *       producer ids (written before they were carried) closes its scope at once.</li>
 *   <li>A partial that only counts blocks (no samples, no heartbeat, no producer) goes straight to stage 3's block
 *       accounting without moving stream time (see {@link #blocksOnly}).</li>
 * </ul>
 * Stream time, the close bound and per-scope close bounds are kept in a change-logged store of the task, so a
 * restart resumes exactly.
 *
 * <p>Not thread safe: Kafka Streams gives each task its own instance.
 */
final class WindowMergeProcessor implements Processor<String, WindowAggregate, String, StepInput> {

    private static final Logger LOG = LoggerFactory.getLogger(WindowMergeProcessor.class);
    static final String STREAM_TIME = "stream-time";
    static final String CLOSED_BEFORE = "closed-before";
    /** Prefix of per-scope close bounds set by end-of-step ticks. */
    static final String SCOPE_CLOSED = "scope-closed/";

    /** How often scopes waiting for a producer's end are looked at. */
    static final Duration WAIT_SWEEP_INTERVAL = Duration.ofSeconds(1);

    private final long windowSizeMs;
    private final long graceMs;
    private final long producerWaitMs;
    private final String windowStoreName;
    private final String progressStoreName;
    private final String producersStoreName;
    private KeyValueStore<String, ScopeProducers> producerStore;
    /** Producers of the scopes with open windows (heap mirror of {@link #producerStore}). */
    private final Map<String, ScopeProducers> scopeProducers = new HashMap<>();
    private ProcessorContext<String, StepInput> context;
    private WindowStore<String, WindowAggregate> windows;
    private KeyValueStore<String, Long> progress;
    private long streamTime = Long.MIN_VALUE;
    /** Windows starting before this are closed (emitted); the next ones are open. */
    private long closedBefore = Long.MIN_VALUE;
    /** Scopes whose end-of-step tick closed their windows before {@link #closedBefore} caught up (heap mirror). */
    private final Map<String, Long> scopeClosed = new HashMap<>();

    WindowMergeProcessor(long windowSizeMs, long graceMs, Duration producerWait, String windowStoreName,
                         String progressStoreName, String producersStoreName) {
        this.windowSizeMs = windowSizeMs;
        this.graceMs = graceMs;
        this.producerWaitMs = producerWait.toMillis();
        this.windowStoreName = windowStoreName;
        this.progressStoreName = progressStoreName;
        this.producersStoreName = producersStoreName;
    }

    @Override
    public void init(ProcessorContext<String, StepInput> ctx) {
        this.context = ctx;
        this.windows = ctx.getStateStore(windowStoreName);
        this.progress = ctx.getStateStore(progressStoreName);
        Long t = progress.get(STREAM_TIME);
        Long c = progress.get(CLOSED_BEFORE);
        streamTime = t == null ? Long.MIN_VALUE : t;
        closedBefore = c == null ? Long.MIN_VALUE : c;
        scopeClosed.clear();
        try (KeyValueIterator<String, Long> it = progress.prefixScan(SCOPE_CLOSED, new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                scopeClosed.put(kv.key.substring(SCOPE_CLOSED.length()), kv.value);
            }
        }
        this.producerStore = ctx.getStateStore(producersStoreName);
        scopeProducers.clear();
        try (KeyValueIterator<String, ScopeProducers> it = producerStore.all()) {
            while (it.hasNext()) {
                KeyValue<String, ScopeProducers> kv = it.next();
                scopeProducers.put(kv.key, kv.value);
            }
        }
        ctx.schedule(WAIT_SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::closeWaitedOut);
    }

    /**
     * End of step for one scope: its end-of-step tick (at the last window's end plus grace) closes that scope's
     * windows only. It does not move the task's stream time: other scopes of the task (other steps, other runs, or
     * producers of this step fed through a stage-1 task that lags) keep their windows open until their own data
     * closes them, so a tick never turns their on-time samples into late ones.
     */
    private void closeScope(String scope, long tickAt) {
        long lastClosed = tickAt - graceMs - windowSizeMs;
        long bound = lastClosed - Math.floorMod(lastClosed, windowSizeMs) + windowSizeMs;
        Long previous = scopeClosed.get(scope);
        if (bound <= closedBefore || (previous != null && bound <= previous)) {
            return;
        }
        long from = Math.max(closedBefore == Long.MIN_VALUE ? 0 : closedBefore, previous == null ? 0 : previous);
        List<KeyValue<Long, WindowAggregate>> closing = new ArrayList<>();
        try (WindowStoreIterator<WindowAggregate> it = windows.fetch(scope, from, bound - 1)) {
            while (it.hasNext()) {
                closing.add(it.next());
            }
        }
        for (KeyValue<Long, WindowAggregate> kv : closing) {
            forwardWindow(kv.key, kv.value, false);
            windows.put(scope, null, kv.key);
        }
        scopeClosed.put(scope, bound);
        progress.put(SCOPE_CLOSED + scope, bound);
    }

    @Override
    public void process(Record<String, WindowAggregate> record) {
        WindowAggregate partial = record.value();
        long ts = record.timestamp();
        if (partial.ticks() > 0) {
            tick(record.key(), ts, partial);
            return;
        }
        if (!partial.emittable() && partial.producers().isEmpty()) {
            blocksOnly(ts, partial);
            return;
        }
        // close first: the store's retention counts from the latest window put, so windows this record's time
        // closes must be emitted before a put moves that time
        advance(ts);
        long windowStart = ts - Math.floorMod(ts, windowSizeMs);
        Long scopeBound = scopeClosed.get(record.key());
        if (windowStart < closedBefore || (scopeBound != null && windowStart < scopeBound)) {
            late(record.key(), windowStart, partial.withProducers(Set.of()), scopeBound);
        } else {
            members(record.key(), partial);
            partial.withProducers(Set.of()); // the window store needs no producer ids
            WindowAggregate current = windows.fetch(record.key(), windowStart);
            windows.put(record.key(), current == null ? partial : current.mergeFrom(partial), windowStart);
        }
    }

    /**
     * A partial that only counts blocks (end-of-step marker copies on a partition their producer sends nothing else to,
     * data blocks without samples): its count goes straight to stage 3's block accounting. It neither moves stream
     * time nor enters the window store: a marker copy is sealed at its step's end, and its stage-1 task, with little
     * else to read, may get there long before the tasks still replaying that step's data after a restart; moving
     * stream time to the step's end would close the windows of every scope of this task that those tasks still feed
     * (the step's "*" scope first), turning their samples into late corrections.
     */
    private void blocksOnly(long ts, WindowAggregate partial) {
        if (partial.blocks() == 0) {
            return;
        }
        long windowStart = ts - Math.floorMod(ts, windowSizeMs);
        StepInput in = StepInput.window(partial.toWindowStats(windowStart, windowStart + windowSizeMs),
                partial.blocks(), false, false);
        context.forward(new Record<>(partial.runId(), in, windowStart));
    }

    /** Notes the producers of an on-time partial as producers of its scope. */
    private void members(String scope, WindowAggregate partial) {
        if (partial.producers().isEmpty()) {
            return;
        }
        ScopeProducers known = scopeProducers.get(scope);
        ScopeProducers next = (known == null ? ScopeProducers.start(partial.runId(), partial.stepId(), partial.op())
                : known).withMembers(partial.producers());
        if (next != known) {
            scopeProducers.put(scope, next);
            producerStore.put(scope, next);
        }
    }

    /**
     * A producer's end-of-step tick: the scope closes once every producer it knows has ended (see the class
     * documentation); until then the tick is remembered.
     */
    private void tick(String scope, long tickAt, WindowAggregate partial) {
        ScopeProducers known = scopeProducers.get(scope);
        ScopeProducers next = (known == null ? ScopeProducers.start(partial.runId(), partial.stepId(), partial.op())
                : known).withTick(partial.producers(), tickAt, partial.blocks(), context.currentSystemTimeMs());
        if (partial.producers().isEmpty() || next.allEnded()) {
            close(scope, next);
            return;
        }
        LOG.debug("end of {} for producers {} at {}: waiting for {}", scope, partial.producers(), tickAt,
                next.missing());
        scopeProducers.put(scope, next);
        producerStore.put(scope, next);
    }

    /** Closes the scope's windows up to its latest tick and tells stage 3 its last window is out. */
    private void close(String scope, ScopeProducers p) {
        closeScope(scope, p.tickAtEpochMs());
        context.forward(new Record<>(p.runId(), StepInput.end(p.runId(), p.stepId(), p.op(), p.tickBlocks(),
                p.firstTickAtMs()), p.tickAtEpochMs()));
        if (scopeProducers.remove(scope) != null) {
            producerStore.delete(scope);
        }
    }

    /** Closes the scopes whose first producer ended {@code producerWait} ago while others never did. */
    private void closeWaitedOut(long nowMs) {
        List<String> due = new ArrayList<>();
        scopeProducers.forEach((scope, p) -> {
            if (p.firstTickAtMs() >= 0 && nowMs - p.firstTickAtMs() >= producerWaitMs) {
                due.add(scope);
            }
        });
        due.sort(null);
        for (String scope : due) {
            ScopeProducers p = scopeProducers.get(scope);
            LOG.warn("{}: producers {} ended, {} did not within {} ms of the first end: its windows close without "
                    + "them (their later samples become late corrections)", scope, p.ended(), p.missing(),
                    producerWaitMs);
            close(scope, p);
        }
    }

    private void late(String scope, long windowStart, WindowAggregate partial, Long scopeBound) {
        if (partial.count() == 0 && partial.blocks() == 0) {
            return; // a late heartbeat says nothing the closed window does not already say
        }
        partial.markLate();
        if (partial.count() > 0) {
            LOG.warn("{} late samples for closed window {} of {} (stream time {}, closed before {}, scope closed "
                    + "before {}): emitted as a late correction", partial.count(), windowStart, scope, streamTime,
                    closedBefore, scopeBound);
        }
        forwardWindow(windowStart, partial, true);
    }

    /** Moves stream time to {@code ts} if later, and emits (then deletes) every window that closes. */
    private void advance(long ts) {
        if (ts <= streamTime) {
            return;
        }
        streamTime = ts;
        progress.put(STREAM_TIME, streamTime);
        // a window closes once stream time reaches its end plus grace: start <= streamTime - grace - size
        long lastClosed = streamTime - graceMs - windowSizeMs;
        long bound = lastClosed - Math.floorMod(lastClosed, windowSizeMs) + windowSizeMs;
        if (bound <= closedBefore) {
            return;
        }
        long from = closedBefore == Long.MIN_VALUE ? 0 : closedBefore;
        List<KeyValue<Windowed<String>, WindowAggregate>> closing = new ArrayList<>();
        try (KeyValueIterator<Windowed<String>, WindowAggregate> it = windows.fetchAll(from, bound - 1)) {
            while (it.hasNext()) {
                closing.add(it.next());
            }
        }
        // by window, and within a window the ops before "*", so stage 3 knows which ops stalled when it sees "*"
        closing.sort(Comparator.<KeyValue<Windowed<String>, WindowAggregate>>comparingLong(kv -> kv.key.window().start())
                .thenComparing(kv -> WindowStats.ALL_OPS.equals(kv.value.op())));
        for (KeyValue<Windowed<String>, WindowAggregate> kv : closing) {
            long start = kv.key.window().start();
            forwardWindow(start, kv.value, false);
            windows.put(kv.key.key(), null, start);
        }
        closedBefore = bound;
        progress.put(CLOSED_BEFORE, closedBefore);
        // per-scope bounds the task's bound has caught up with are no longer needed
        List<String> covered = new ArrayList<>();
        scopeClosed.forEach((scope, b) -> {
            if (b <= closedBefore) {
                covered.add(scope);
            }
        });
        for (String scope : covered) {
            scopeClosed.remove(scope);
            progress.delete(SCOPE_CLOSED + scope);
        }
    }

    private void forwardWindow(long windowStart, WindowAggregate aggregate, boolean late) {
        boolean publish = late ? aggregate.count() > 0 : aggregate.emittable();
        if (!publish && aggregate.blocks() == 0) {
            return;
        }
        StepInput in = StepInput.window(aggregate.toWindowStats(windowStart, windowStart + windowSizeMs),
                aggregate.blocks(), publish, late);
        context.forward(new Record<>(aggregate.runId(), in, windowStart));
    }
}
