package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.aggregator.stall.WindowPoint;
import io.tailstream.analysis.Plateau;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyFigures;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.HdrHistogram.Histogram;
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
 * Stage 3: per run (the task that owns the run's partition of the step input reads every closed window of the run's
 * scopes, plus the run's control events; runs are spread over the tasks), in window order per scope:
 * <ul>
 *   <li><b>stalls</b> — each scope's whole measured windows go through a {@link StallDetector}; the {@code "*"}
 *       scope's stalls are published as {@link StallEvent}s, open ones on every window they extend and once more when
 *       they end; {@code affectedOps} lists the ops whose own detector has a stall of the same kind overlapping
 *       it.</li>
 *   <li><b>roll-ups</b> — each window is merged into the open roll-up window of each configured size (measured parts
 *       included); a roll-up is emitted when a window of a later roll-up period arrives or the scope ends. A late
 *       correction of a roll-up window already emitted is emitted at once as a roll-up late correction.</li>
 *   <li><b>summaries</b> — a {@link StepSummary} per scope, exact over the measured samples (see below), published
 *       once the step is complete and again only when something changes it.</li>
 *   <li><b>run summaries</b> — every step summary's figures are kept per run; when a {@code RunEnded} arrives a
 *       {@link RunSummary} (across rounds, sweeps and endpoints, {@link RunSummaryCalculator}) is published, and
 *       again on each later {@code RunEnded} (several producers) and each step summary published after it (the
 *       last step's summary usually comes after {@code RunEnded}: it crosses two repartitions, the control event
 *       none). Consumers keep the last record per run. A run's state is dropped {@link #RUN_GRACE} (wall clock)
 *       after its last run summary, or {@link #RUN_IDLE_LIMIT} after its last change if it never ends; a step
 *       summary of a dropped run is not reflected (the run summary published stands).</li>
 * </ul>
 *
 * <h2>Measured figures</h2>
 * A summary adds up every window's {@link WindowStats#measuredPart()} (the samples whose warm-up flag is clear, late
 * corrections included) and divides by the producers' exact measured span ({@link StepMeta#exactSpan()}); producers
 * that do not report their bounds get the span of the windows holding measured samples instead.
 *
 * <h2>Whole windows: stall rules and trend</h2>
 * The stall rules and the QPS trend read only <em>whole</em> measured windows, because the first and last windows of
 * a step hold part of a second: a last window covering 0.24 s of measurement reads as a 76 % collapse. Left out are
 * windows holding warm-up samples, the scope's first window with samples when no warm-up came before it (the step
 * started inside it), and windows reaching past the end of the measurement. That end is known exactly only from the
 * producers' {@code StepEnded}, which may come before or after the last windows; so the last window with samples and
 * the empty windows after it are <em>held</em> ({@link ScopeState#held()}) until a later window with samples proves
 * them inside (no sample completes after the measurement ends), or until more than {@link #HOLD_WINDOWS} windows are
 * held (a hard stall is then reported that many windows later), or until the summary is first published, when they
 * are fed if they end by the exact measurement end and left out otherwise (all of them when the end is not known).
 * What the rules see therefore depends only on the windows and the step's end, never on the order in which control
 * events and windows arrive.
 *
 * <h2>Publication</h2>
 * A scope's summary is published when the step is complete: the scope ended (its end-of-step ticks closed its last
 * window; for an op, as many ticks as the {@code "*"} scope got), every producer that started the step reported its
 * end ({@code StepEnded}) and every block they sent was counted ({@code missingBlocks == 0}), so its first record
 * already holds the final figures. A producer that never reports (killed) or blocks that never arrive do not hold it
 * forever: {@code stepEndWait} after the first producer's end-of-step tick (stage 2 waits as long before it closes the
 * step's windows without the missing producers) it is published with {@code complete = false}, naming the producers
 * whose {@code StepEnded} is missing. Every summary carries the step's producers: their threads summed, and each one's
 * part as its control events describe it.
 * After that it is published again only when its figures change (a late correction, a producer's late end, the block
 * accounting, the client-bound flag): a fingerprint of the last record published is kept.
 *
 * <p>State is in change-logged key-value stores (JSON), so exactly-once holds across restarts. Not thread safe:
 * one instance per task.
 */
public final class StepProcessor implements Processor<String, StepInput, String, StepOutput> {

    private static final double MS_PER_HOUR = 3_600_000.0;
    private static final Logger LOG = LoggerFactory.getLogger(StepProcessor.class);

    /**
     * How long a run's state outlives its last run summary: late step summaries (late corrections of windows within
     * the window grace, other producers' {@code StepEnded}) come within seconds; ten minutes is generous.
     */
    public static final Duration RUN_GRACE = Duration.ofMinutes(10);
    /** A run that never ends (its producer was killed) is dropped after this long without a change: the topics'
     *  retention, past which its data could not be re-aggregated anyway. */
    public static final Duration RUN_IDLE_LIMIT = Duration.ofDays(7);
    /** How often ended and idle runs are looked for. */
    static final Duration RUN_SWEEP_INTERVAL = Duration.ofMinutes(1);
    /** How often steps whose summaries wait for a producer's end are looked at. */
    static final Duration WAIT_SWEEP_INTERVAL = Duration.ofSeconds(1);
    /**
     * Most whole windows held back from the stall rules after the last window with samples (see the class
     * documentation): the empty windows a producer's heartbeats make between its last transaction and its end-of-step
     * marker are a few hundred milliseconds, rarely more than one window.
     */
    public static final int HOLD_WINDOWS = 3;

    private final StallConfig stallConfig;
    private final List<Long> rollupSizesMs;
    private final long stepEndWaitMs;
    private final String scopeStoreName;
    private final String stepStoreName;
    private final String runStoreName;
    private ProcessorContext<String, StepOutput> context;
    private KeyValueStore<String, ScopeState> scopes;
    private KeyValueStore<String, StepMeta> steps;
    private KeyValueStore<String, RunState> runs;
    /** Steps with an ended scope whose summary waits (heap mirror of {@link StepMeta#awaiting()}). */
    private final Set<String> awaiting = new TreeSet<>();

    /**
     * @param stepEndWait how long after a step's first scope ended its summaries wait for every producer's end and
     *                    every block before they are published as incomplete
     */
    public StepProcessor(StallConfig stallConfig, List<Long> rollupSizesMs, Duration stepEndWait,
                         String scopeStoreName, String stepStoreName, String runStoreName) {
        this.stallConfig = stallConfig;
        this.rollupSizesMs = List.copyOf(rollupSizesMs);
        this.stepEndWaitMs = stepEndWait.toMillis();
        this.scopeStoreName = scopeStoreName;
        this.stepStoreName = stepStoreName;
        this.runStoreName = runStoreName;
    }

    @Override
    public void init(ProcessorContext<String, StepOutput> ctx) {
        this.context = ctx;
        this.scopes = ctx.getStateStore(scopeStoreName);
        this.steps = ctx.getStateStore(stepStoreName);
        this.runs = ctx.getStateStore(runStoreName);
        awaiting.clear();
        try (KeyValueIterator<String, StepMeta> it = steps.all()) {
            while (it.hasNext()) {
                KeyValue<String, StepMeta> kv = it.next();
                if (kv.value.awaiting()) {
                    awaiting.add(kv.key);
                }
            }
        }
        ctx.schedule(RUN_SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::dropFinishedRuns);
        ctx.schedule(WAIT_SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::publishWaitedOut);
    }

    @Override
    public void process(Record<String, StepInput> record) {
        StepInput in = record.value();
        switch (in.kind()) {
            case StepInput.WINDOW -> window(in);
            case StepInput.END -> end(in);
            case StepInput.CONTROL -> control(in.control());
            case StepInput.DEAD_LETTER -> deadLetter(in.runId(), in.reason());
            default -> throw new IllegalArgumentException("unknown step input kind '" + in.kind() + "' for run "
                    + in.runId());
        }
    }

    private void window(StepInput in) {
        WindowStats w = in.window();
        StepMeta before = meta(w.runId(), w.stepId());
        StepMeta meta = before.withOp(w.op()).withBlocks(in.blocks());
        if (meta != before) {
            steps.put(stepKey(w.runId(), w.stepId()), meta);
        }
        boolean recheck = in.blocks() > 0 && meta.firstEndAtMs() >= 0; // the block accounting changed after an end
        if (in.publish() || w.count() > 0) {
            String key = w.scopeKey();
            ScopeState s = scopes.get(key);
            if (s == null) {
                s = ScopeState.start(w.runId(), w.stepId(), w.op());
            }
            PartSum.Decoded whole = PartSum.Decoded.of(w.whole());
            // a wholly measured window (the common case) is decoded once
            PartSum.Decoded measured = w.measured() == null && w.warmupCount() == 0 ? whole
                    : PartSum.Decoded.of(w.measuredPart());
            s = in.late() ? late(s, w, whole, measured) : onTime(s, w, whole, measured);
            scopes.put(key, s);
            recheck |= s.ended();
        }
        if (recheck) {
            check(w.runId(), w.stepId());
        }
    }

    /** Adds a window's measured part to the scope's sum; every window, on time or late. */
    private static ScopeState measure(ScopeState s, WindowStats w, PartSum.Decoded measured) {
        long first = s.firstMeasuredMs();
        long lastEnd = s.lastMeasuredEndMs();
        if (measured.part().count() > 0) {
            first = first < 0 ? w.windowStartEpochMs() : Math.min(first, w.windowStartEpochMs());
            lastEnd = Math.max(lastEnd, w.windowEndEpochMs());
        }
        return s.withMeasured(PartSum.plus(s.measuredSum(), measured), first, lastEnd, s.lateCount() + w.lateCount());
    }

    private ScopeState onTime(ScopeState s, WindowStats w, PartSum.Decoded whole, PartSum.Decoded measured) {
        s = measure(s, w, measured).withRollups(rollups(s, w, whole, measured));
        boolean samples = w.count() > 0;
        if (w.warmupCount() > 0) {
            return s.withPhase(s.seenSamples() || samples, true, s.wholeFromMs());
        }
        long wholeFrom = s.wholeFromMs();
        if (wholeFrom < 0) {
            // before the first whole window: empty ones are before the measurement, and the scope's first window
            // with samples is where the step started (partly covered) unless warm-up came before it
            boolean startsHere = samples && (s.seenSamples() || s.seenWarmup());
            if (!startsHere) {
                return s.withPhase(s.seenSamples() || samples, s.seenWarmup(), -1);
            }
            wholeFrom = w.windowStartEpochMs();
        }
        s = s.withPhase(s.seenSamples() || samples, s.seenWarmup(), wholeFrom);
        if (s.finalized()) {
            return s; // stalls and trend are final once the summary went out (a window of a producer waited out)
        }
        return hold(s, new ScopeState.HeldWindow(new WindowPoint(w.windowStartEpochMs(), w.windowEndEpochMs(),
                w.successful(), w.qps(), w.p99Micros()), w.count()));
    }

    /**
     * Holds a whole window back and feeds the stall rules and trend what is proven inside the measurement: everything
     * held before a window with samples, and the oldest windows beyond {@link #HOLD_WINDOWS}.
     */
    private ScopeState hold(ScopeState s, ScopeState.HeldWindow window) {
        List<ScopeState.HeldWindow> held = new ArrayList<>(s.held());
        held.add(window);
        int release = window.samples() > 0 ? held.size() - 1 : Math.max(0, held.size() - HOLD_WINDOWS);
        return feed(s, held.subList(0, release), held.subList(release, held.size()));
    }

    /** Feeds {@code windows} to the stall rules and trend in order; {@code stillHeld} stay held. */
    private ScopeState feed(ScopeState s, List<ScopeState.HeldWindow> windows, List<ScopeState.HeldWindow> stillHeld) {
        if (windows.isEmpty()) {
            return s.withSeries(s.trend(), stillHeld, s.detector());
        }
        StallDetector detector = new StallDetector(stallConfig, s.detector());
        QpsTrend trend = s.trend();
        List<Stall> stalls = new ArrayList<>();
        for (ScopeState.HeldWindow h : windows) {
            WindowPoint p = h.point();
            stalls.addAll(detector.accept(p));
            trend = trend.plus((p.startMs() - s.wholeFromMs()) / MS_PER_HOUR, p.qps(), p.endMs() - p.startMs());
        }
        ScopeState next = s.withSeries(trend, stillHeld, detector.state());
        publishStalls(next, stalls);
        return next;
    }

    /**
     * A late correction: merged into the open roll-up of each size that covers its window; for a size whose roll-up of
     * that window was already emitted (or the scope ended), it becomes a roll-up late correction, a record of the
     * roll-up window holding only the late samples ({@code lateCount == count}), so that summing counts per scope and
     * roll-up window gives every sample.
     */
    private ScopeState late(ScopeState s, WindowStats w, PartSum.Decoded whole, PartSum.Decoded measured) {
        Map<Long, ScopeState.Rollup> open = new TreeMap<>();
        for (ScopeState.Rollup r : s.rollups()) {
            open.put(r.sizeMs(), r);
        }
        List<ScopeState.Rollup> rollups = new ArrayList<>();
        for (long size : rollupSizesMs) {
            ScopeState.Rollup r = open.get(size);
            long start = w.windowStartEpochMs() - Math.floorMod(w.windowStartEpochMs(), size);
            if (r != null && r.startMs() == start) {
                rollups.add(plus(r, w, whole, measured));
                continue;
            }
            if (r != null) {
                rollups.add(r);
            }
            if (w.count() > 0) {
                emitRollup(s, plus(new ScopeState.Rollup(size, start, null, null, 0, 0), w, whole, measured));
            }
        }
        return measure(s, w, measured).withRollups(rollups);
    }

    private List<ScopeState.Rollup> rollups(ScopeState s, WindowStats w, PartSum.Decoded whole,
                                            PartSum.Decoded measured) {
        Map<Long, ScopeState.Rollup> open = new TreeMap<>();
        for (ScopeState.Rollup r : s.rollups()) {
            open.put(r.sizeMs(), r);
        }
        List<ScopeState.Rollup> next = new ArrayList<>();
        for (long size : rollupSizesMs) {
            long start = w.windowStartEpochMs() - Math.floorMod(w.windowStartEpochMs(), size);
            ScopeState.Rollup r = open.get(size);
            if (r != null && r.startMs() != start) {
                emitRollup(s, r);
                r = null;
            }
            next.add(plus(r == null ? new ScopeState.Rollup(size, start, null, null, 0, 0) : r, w, whole, measured));
        }
        return next;
    }

    /** A roll-up plus one window: its samples, and its measured part once any window of the roll-up had warm-up. */
    private static ScopeState.Rollup plus(ScopeState.Rollup r, WindowStats w, PartSum.Decoded whole,
                                          PartSum.Decoded measured) {
        WindowPart m = r.measured();
        if (m != null || w.warmupCount() > 0) {
            m = PartSum.plus(m == null ? r.whole() : m, measured);
        }
        return new ScopeState.Rollup(r.sizeMs(), r.startMs(), PartSum.plus(r.whole(), whole), m,
                r.warmupCount() + w.warmupCount(), r.lateCount() + w.lateCount());
    }

    private void emitRollup(ScopeState s, ScopeState.Rollup r) {
        WindowPart whole = r.whole();
        boolean mixed = r.warmupCount() > 0 && r.warmupCount() < whole.count();
        WindowStats stats = WindowStats.of(s.runId(), s.stepId(), s.op(), r.startMs(), r.startMs() + r.sizeMs(),
                whole.count(), whole.errors(), whole.errorsByClass(), whole.queries(), whole.okQueries(),
                whole.successfulLatencies(), whole.errorHistogram() == null ? null : whole.failedLatencies(),
                r.warmupCount(), r.lateCount(), mixed ? r.measured() : null);
        context.forward(new Record<>(stats.scopeKey(), new StepOutput.Rollup(stats), r.startMs()));
    }

    private void end(StepInput in) {
        long now = context.currentSystemTimeMs();
        // the wait for missing producers counts from the first producer's end, which stage 2 saw first
        long endedAt = in.firstEndAtMs() > 0 ? Math.min(now, in.firstEndAtMs()) : now;
        StepMeta meta = meta(in.runId(), in.stepId()).withBlocks(in.blocks()).withEnd(in.op(), endedAt);
        steps.put(stepKey(in.runId(), in.stepId()), meta);
        String key = WindowStats.scopeKey(in.runId(), in.stepId(), in.op());
        ScopeState s = scopes.get(key);
        if (s != null && !s.ended()) {
            for (ScopeState.Rollup r : s.rollups()) {
                emitRollup(s, r);
            }
            scopes.put(key, s.endedNow());
        }
        check(in.runId(), in.stepId());
    }

    private void control(ControlEvent event) {
        runControl(event);
        StepMeta before;
        StepMeta next;
        if (event instanceof StepStarted e) {
            before = meta(e.runId(), e.stepId());
            next = before.withStarted(e);
        } else if (event instanceof StepEnded e) {
            before = meta(e.runId(), e.stepId());
            next = before.withStepEnded(e).withEndedPart(e);
        } else if (event instanceof ClientHealth e && e.clientBound()) {
            before = meta(e.runId(), e.stepId());
            next = before.withClientBound(e);
        } else {
            return;
        }
        if (!next.equals(before)) {
            steps.put(stepKey(next.runId(), next.stepId()), next);
            if (next.firstEndAtMs() >= 0) {
                check(next.runId(), next.stepId());
            }
        }
    }

    /** Publishes the summaries of the step's ended scopes that are due or changed (see the class documentation). */
    private void check(String runId, int stepId) {
        StepMeta meta = meta(runId, stepId);
        long now = context.currentSystemTimeMs();
        boolean waitedOut = meta.firstEndAtMs() >= 0 && now - meta.firstEndAtMs() >= stepEndWaitMs;
        boolean waiting = false;
        // ops first: when "*" finishes its stall rules, affectedOps reads the ops' final stalls
        List<String> order = new ArrayList<>(meta.ops());
        order.add(WindowStats.ALL_OPS);
        for (String op : order) {
            String key = WindowStats.scopeKey(runId, stepId, op);
            ScopeState s = scopes.get(key);
            if (s == null || !s.ended()) {
                continue;
            }
            boolean complete = complete(op, meta);
            if (s.published() == null && !complete && !waitedOut) {
                waiting = true;
                continue;
            }
            if (!s.finalized()) {
                s = finalizeSeries(s, meta);
            }
            StepSummary summary = summary(s, meta, complete, now);
            String fingerprint = fingerprint(summary);
            if (!fingerprint.equals(s.published())) {
                s = s.publishedAs(fingerprint);
                context.forward(new Record<>(summary.key(), new StepOutput.Summary(summary),
                        Math.max(0, summary.measureEndEpochMs())));
                runFigures(summary);
            }
            scopes.put(key, s);
        }
        String stepKey = stepKey(runId, stepId);
        steps.put(stepKey, meta.withAwaiting(waiting));
        if (waiting) {
            awaiting.add(stepKey);
        } else {
            awaiting.remove(stepKey);
        }
    }

    /** The scope ended, with as many ticks as the step's "*" scope, and nothing of the step is missing. */
    private static boolean complete(String op, StepMeta meta) {
        return meta.allEnded() && meta.missingBlocks() == 0 && meta.endsOf(op) >= meta.endsOf(WindowStats.ALL_OPS);
    }

    private void publishWaitedOut(long now) {
        List<String> due = new ArrayList<>();
        for (String stepKey : awaiting) {
            StepMeta m = steps.get(stepKey);
            if (m == null || m.firstEndAtMs() < 0 || now - m.firstEndAtMs() >= stepEndWaitMs) {
                due.add(stepKey);
            }
        }
        for (String stepKey : due) {
            StepMeta m = steps.get(stepKey);
            if (m == null) {
                awaiting.remove(stepKey);
                continue;
            }
            LOG.info("step {}: summary published incomplete after waiting {} ms (producers {}, ended {}, missing "
                    + "blocks {})", stepKey, stepEndWaitMs, m.producers(), m.blocksSent().keySet(), m.missingBlocks());
            check(m.runId(), m.stepId());
        }
    }

    /**
     * The first publication: the held windows are decided with the exact measurement end (fed if they end by it, left
     * out otherwise; all left out when the end is not known), then the stall rules finish.
     */
    private ScopeState finalizeSeries(ScopeState s, StepMeta meta) {
        StepMeta.Bounds span = meta.exactSpan();
        List<ScopeState.HeldWindow> inside = new ArrayList<>();
        if (span != null) {
            for (ScopeState.HeldWindow h : s.held()) {
                if (h.point().endMs() * 1000 <= span.endMicros()) {
                    inside.add(h);
                }
            }
        }
        s = feed(s, inside, List.of());
        StallDetector detector = new StallDetector(stallConfig, s.detector());
        List<Stall> ended = detector.finish();
        s = s.withSeries(s.trend(), List.of(), detector.state()).finalizedNow();
        publishStalls(s, ended);
        return s;
    }

    private void publishStalls(ScopeState s, List<Stall> stalls) {
        if (stalls.isEmpty() || !WindowStats.ALL_OPS.equals(s.op())) {
            return;
        }
        StepMeta meta = meta(s.runId(), s.stepId());
        Map<String, List<Stall>> opStalls = new HashMap<>();
        for (String op : meta.ops()) {
            ScopeState o = scopes.get(WindowStats.scopeKey(s.runId(), s.stepId(), op));
            if (o != null) {
                opStalls.put(op, new StallDetector(stallConfig, o.detector()).stalls());
            }
        }
        long now = context.currentSystemTimeMs();
        for (Stall st : stalls) {
            List<String> affected = new ArrayList<>();
            for (String op : new TreeSet<>(opStalls.keySet())) {
                boolean hit = opStalls.get(op).stream().anyMatch(o -> o.kind().equals(st.kind())
                        && o.overlaps(st.startMs(), st.endMs()));
                if (hit) {
                    affected.add(op);
                }
            }
            StallEvent event = new StallEvent(s.runId(), s.stepId(), st.kind(), st.startMs(), st.endMs(), st.open(),
                    st.baselineQps(), StallEvent.HARD.equals(st.kind()) ? 0 : st.minQps(), st.baselineP99Micros(),
                    st.worstP99Micros(), affected, now);
            context.forward(new Record<>(event.key(), new StepOutput.Stall(event), st.startMs()));
        }
    }

    /** The scope's summary (version 2) as of now. */
    private StepSummary summary(ScopeState s, StepMeta meta, boolean complete, long now) {
        WindowPart m = s.measuredSum();
        StepMeta.Bounds span = meta.exactSpan();
        String source = StepSummary.SPAN_PRODUCER;
        if (span == null) {
            source = StepSummary.SPAN_WINDOWS;
            span = s.firstMeasuredMs() < 0 ? new StepMeta.Bounds(0, 0)
                    : new StepMeta.Bounds(s.firstMeasuredMs() * 1000, s.lastMeasuredEndMs() * 1000);
        }
        double seconds = (span.endMicros() - span.startMicros()) / 1e6;
        Histogram ok = m.successfulLatencies();
        LatencyFigures f = LatencyFigures.of(ok);
        LatencyFigures failed = LatencyFigures.of(m.errorHistogram() == null ? null : m.failedLatencies());
        StallDetector detector = new StallDetector(stallConfig, s.detector());
        return new StepSummary(s.runId(), s.stepId(), s.op(), Math.floorDiv(span.startMicros(), 1000L),
                Math.floorDiv(span.endMicros(), 1000L), m.count(), m.errors(), m.errorsByClass(), m.queries(),
                rate(m.okQueries(), seconds), rate(m.successful(), seconds), f.meanMicros(), f.p50Micros(),
                f.p90Micros(), f.p95Micros(), f.p99Micros(), f.p999Micros(), f.maxMicros(), detector.stallCount(),
                detector.stallMs(), s.trend().slopePctPerHour(), s.trend().cv(), meta.clientBound(), s.lateCount(),
                // blocks belong to the step, not to an op: the "*" summary carries the figure
                WindowStats.ALL_OPS.equals(s.op()) ? meta.missingBlocks() : -1,
                LatencyHistograms.toBase64(ok), now, StepSummary.VERSION, m.okQueries(), rate(m.errors(), seconds),
                f.p9999Micros(), seconds, span.startMicros(), span.endMicros(), source, complete,
                (int) Math.min(Integer.MAX_VALUE, s.trend().n()), failed.meanMicros(), failed.p99Micros(),
                failed.maxMicros(), m.errorHistogram(), meta.threads(), meta.producerParts(),
                meta.missingProducers());
    }

    private static double rate(long n, double seconds) {
        return seconds > 0 ? n / seconds : 0;
    }

    /** Identifies a summary's content, emission time left out: a republication only when this changes. */
    private static String fingerprint(StepSummary summary) {
        String json = Json.writeString(summary).replaceFirst("\"atEpochMs\":-?\\d+", "");
        return UUID.nameUUIDFromBytes(json.getBytes(StandardCharsets.UTF_8)).toString();
    }

    // ---- run summaries ----

    private void runControl(ControlEvent event) {
        long now = context.currentSystemTimeMs();
        if (event instanceof RunStarted e) {
            Plateau plan = RunSummaryCalculator.planPlateau(e.settings());
            runs.put(e.runId(), run(e.runId(), now).withPlateau(plan == null ? null : plan.minGainPct(),
                    plan == null ? null : plan.patience(), now));
        } else if (event instanceof StepStarted e) {
            String target = e.target() == null || e.target().name() == null ? "" : e.target().name();
            RunState r = run(e.runId(), now);
            // several producers may run the step: its threads are all of theirs together
            RunState.StepDesc previous = r.steps().get(String.valueOf(e.stepId()));
            Map<String, Integer> producerThreads = new TreeMap<>(previous == null ? Map.of()
                    : previous.producerThreads());
            producerThreads.put(e.producerId(), e.threads());
            int threads = producerThreads.values().stream().mapToInt(Integer::intValue).sum();
            RunState.StepDesc desc = new RunState.StepDesc(e.stepId(), target,
                    e.target() == null ? null : e.target().product(), e.target() == null ? null : e.target().nodes(),
                    e.workload() == null ? "" : e.workload(), threads, e.round(), producerThreads);
            runs.put(e.runId(), r.withStep(desc, now));
        } else if (event instanceof RunEnded e) {
            RunState r = runs.get(e.runId());
            if (r == null) {
                LOG.info("run {} ended (producer {}) but stage 3 holds nothing of it (no RunStarted or StepStarted, "
                        + "or dropped {} after its last run summary): no run summary", e.runId(), e.producerId(),
                        RUN_GRACE);
                return;
            }
            publishRun(r.endedAt(now));
        }
    }

    /**
     * An input record of the run went to the dead-letter topic: counted in the run summary (published again if the
     * run ended). A run stage 3 does not know (no {@code RunStarted} or {@code StepStarted} yet, or dropped) is not
     * created for it: a garbled key must not make state.
     */
    private void deadLetter(String runId, String reason) {
        RunState r = runs.get(runId);
        if (r == null) {
            LOG.info("dead letter ({}) of run {}, which stage 3 does not know: not in a run summary", reason, runId);
            return;
        }
        RunState next = r.withDeadLetter(reason, context.currentSystemTimeMs());
        if (next.ended()) {
            publishRun(next);
        } else {
            runs.put(runId, next);
        }
    }

    private void runFigures(StepSummary s) {
        RunState r = runs.get(s.runId());
        if (r == null) {
            return; // no StepStarted of the run (or dropped after its grace): nothing to group the step by
        }
        long now = context.currentSystemTimeMs();
        RunState next = r.withFigures(new RunState.StepFigures(s.stepId(), s.op(), s.count(), s.errors(), s.queries(),
                s.measuredSeconds(), s.qps(), s.tps(), s.meanMicros(), s.p95Micros(), s.p99Micros(), s.okQueries()),
                now);
        if (next.ended()) {
            publishRun(next);
        } else {
            runs.put(s.runId(), next);
        }
    }

    private void publishRun(RunState r) {
        long now = context.currentSystemTimeMs();
        RunSummary summary = RunSummaryCalculator.compute(r, now);
        runs.put(r.runId(), r.publishedAt(now));
        context.forward(new Record<>(summary.key(), new StepOutput.RunSummaryOut(summary), now));
    }

    private void dropFinishedRuns(long now) {
        List<String> drop = new ArrayList<>();
        try (KeyValueIterator<String, RunState> it = runs.all()) {
            while (it.hasNext()) {
                KeyValue<String, RunState> e = it.next();
                RunState r = e.value;
                boolean published = r.ended() && r.publishedAtMs() >= 0
                        && now - r.publishedAtMs() >= RUN_GRACE.toMillis();
                boolean idle = now - r.updatedAtMs() >= RUN_IDLE_LIMIT.toMillis();
                if (published || idle) {
                    drop.add(e.key);
                }
            }
        }
        for (String run : drop) {
            runs.delete(run);
            LOG.debug("run {}: run-summary state dropped", run);
        }
    }

    private RunState run(String runId, long now) {
        RunState r = runs.get(runId);
        return r == null ? RunState.start(runId, now) : r;
    }

    private StepMeta meta(String runId, int stepId) {
        StepMeta m = steps.get(stepKey(runId, stepId));
        return m == null ? StepMeta.start(runId, stepId) : m;
    }

    private static String stepKey(String runId, int stepId) {
        return runId + "/" + stepId;
    }
}
