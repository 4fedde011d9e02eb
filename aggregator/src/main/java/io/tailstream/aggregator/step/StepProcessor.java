package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.aggregator.stall.WindowPoint;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * Stage 3: per run (one task reads every closed window of every scope, plus the control topic), in window order
 * per scope:
 * <ul>
 *   <li><b>stalls</b> — each scope's measured windows go through a {@link StallDetector}; the {@code "*"} scope's
 *       stalls are published as {@link StallEvent}s, open ones on every window they extend and once more when they
 *       end; {@code affectedOps} lists the ops whose own detector has a stall of the same kind overlapping it.</li>
 *   <li><b>roll-ups</b> — each window is merged into the open roll-up window of each configured size; a roll-up is
 *       emitted when a window of a later roll-up period arrives or the scope ends.</li>
 *   <li><b>summaries</b> — when a scope ends (its end-of-step ticks closed its last window) a {@link StepSummary}
 *       of its measurement phase; published again if anything changes later (late corrections, a
 *       {@code StepEnded} that completes the block accounting). Consumers keep the last record per key.</li>
 *   <li><b>run summaries</b> — every step summary's figures are kept per run; when a {@code RunEnded} arrives a
 *       {@link RunSummary} (across rounds, sweeps and endpoints, {@link RunSummaryCalculator}) is published, and
 *       again on each later {@code RunEnded} (several producers) and each step summary published after it (the
 *       last step's summary usually comes after {@code RunEnded}: it crosses two repartitions, the control event
 *       none). Consumers keep the last record per run. A run's state is dropped {@link #RUN_GRACE} (wall clock)
 *       after its last run summary, or {@link #RUN_IDLE_LIMIT} after its last change if it never ends; a step
 *       summary of a dropped run is not reflected (the run summary published stands).</li>
 * </ul>
 * The measurement phase starts at the first non-empty window without warm-up samples; from then on every window
 * of the scope, empty (stalled) ones included, is measured.
 *
 * <p>State is in two change-logged key-value stores (JSON), so exactly-once holds across restarts. Not thread safe:
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

    private final StallConfig stallConfig;
    private final List<Long> rollupSizesMs;
    private final String scopeStoreName;
    private final String stepStoreName;
    private final String runStoreName;
    private ProcessorContext<String, StepOutput> context;
    private KeyValueStore<String, ScopeState> scopes;
    private KeyValueStore<String, StepMeta> steps;
    private KeyValueStore<String, RunState> runs;

    public StepProcessor(StallConfig stallConfig, List<Long> rollupSizesMs, String scopeStoreName,
                         String stepStoreName, String runStoreName) {
        this.stallConfig = stallConfig;
        this.rollupSizesMs = List.copyOf(rollupSizesMs);
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
        ctx.schedule(RUN_SWEEP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::dropFinishedRuns);
    }

    @Override
    public void process(Record<String, StepInput> record) {
        StepInput in = record.value();
        switch (in.kind()) {
            case StepInput.WINDOW -> window(in);
            case StepInput.END -> end(in);
            case StepInput.CONTROL -> control(in.control());
            default -> throw new IllegalArgumentException("unknown step input kind '" + in.kind() + "' for run "
                    + in.runId());
        }
    }

    private void window(StepInput in) {
        WindowStats w = in.window();
        StepMeta meta = meta(w.runId(), w.stepId());
        Set<String> ops = new TreeSet<>(meta.ops());
        if (!WindowStats.ALL_OPS.equals(w.op())) {
            ops.add(w.op());
        }
        meta = new StepMeta(meta.runId(), meta.stepId(), ops, meta.blocksReceived() + in.blocks(), meta.producers(),
                meta.blocksSent(), meta.clientBound());
        steps.put(stepKey(w.runId(), w.stepId()), meta);
        // summaries already out that this record changes: published again (consumers keep the last per key)
        Set<String> republish = new TreeSet<>();
        String allKey = WindowStats.scopeKey(w.runId(), w.stepId(), WindowStats.ALL_OPS);
        ScopeState all = scopes.get(allKey);
        if (in.blocks() > 0 && all != null && all.ended()) {
            republish.add(allKey); // blocks counted after the end (e.g. marker copies): the accounting changed
        }
        if (in.publish() || w.count() > 0) {
            String key = w.scopeKey();
            ScopeState s = scopes.get(key);
            if (s == null) {
                s = ScopeState.start(w.runId(), w.stepId(), w.op());
            }
            Histogram latencies = LatencyHistograms.fromBase64(w.histogram());
            s = in.late() ? late(s, w, latencies) : onTime(s, w, latencies);
            scopes.put(key, s);
            if (in.late() && s.ended()) {
                republish.add(key);
            }
        }
        for (String key : republish) {
            emitSummary(scopes.get(key), meta);
        }
    }

    private ScopeState onTime(ScopeState s, WindowStats w, Histogram latencies) {
        List<ScopeState.Rollup> rollups = rollups(s, w, latencies);
        long measureStart = s.measureStartMs();
        if (measureStart < 0 && w.count() > 0 && w.warmupCount() == 0) {
            measureStart = w.windowStartEpochMs();
        }
        if (measureStart < 0 || w.windowStartEpochMs() < measureStart) {
            return new ScopeState(s.runId(), s.stepId(), s.op(), -1, -1, s.measured(), s.lateCount() + w.lateCount(),
                    s.trend(), s.detector(), rollups, s.ended());
        }
        StallDetector detector = new StallDetector(stallConfig, s.detector());
        List<Stall> stalls = detector.accept(new WindowPoint(w.windowStartEpochMs(), w.windowEndEpochMs(), w.count(),
                w.qps(), w.p99Micros()));
        double hours = (w.windowStartEpochMs() - measureStart) / MS_PER_HOUR;
        ScopeState next = new ScopeState(s.runId(), s.stepId(), s.op(), measureStart, w.windowEndEpochMs(),
                s.measured().plus(w, latencies), s.lateCount(), s.trend().plus(hours, w.qps()), detector.state(),
                rollups, s.ended());
        publishStalls(next, stalls);
        return next;
    }

    private ScopeState late(ScopeState s, WindowStats w, Histogram latencies) {
        boolean measured = s.measureStartMs() >= 0 && w.windowStartEpochMs() >= s.measureStartMs();
        List<ScopeState.Rollup> rollups = new ArrayList<>();
        for (ScopeState.Rollup r : s.rollups()) {
            boolean inside = w.windowStartEpochMs() >= r.startMs() && w.windowStartEpochMs() < r.startMs() + r.sizeMs();
            rollups.add(inside ? new ScopeState.Rollup(r.sizeMs(), r.startMs(), r.acc().plus(w, latencies)) : r);
        }
        // measured's own lateCount grows with the merged correction; lateCount counts unmeasured ones as well
        return new ScopeState(s.runId(), s.stepId(), s.op(), s.measureStartMs(), s.measureEndMs(),
                measured ? s.measured().plus(w, latencies) : s.measured(), s.lateCount() + w.lateCount(), s.trend(),
                s.detector(), rollups, s.ended());
    }

    private List<ScopeState.Rollup> rollups(ScopeState s, WindowStats w, Histogram latencies) {
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
            WindowAccumulator acc = r == null ? WindowAccumulator.empty() : r.acc();
            next.add(new ScopeState.Rollup(size, start, acc.plus(w, latencies)));
        }
        return next;
    }

    private void emitRollup(ScopeState s, ScopeState.Rollup r) {
        WindowStats stats = r.acc().toWindowStats(s.runId(), s.stepId(), s.op(), r.startMs(),
                r.startMs() + r.sizeMs());
        context.forward(new Record<>(stats.scopeKey(), new StepOutput.Rollup(stats), r.startMs()));
    }

    private void end(StepInput in) {
        StepMeta meta = meta(in.runId(), in.stepId());
        meta = new StepMeta(meta.runId(), meta.stepId(), meta.ops(), meta.blocksReceived() + in.blocks(),
                meta.producers(), meta.blocksSent(), meta.clientBound());
        steps.put(stepKey(in.runId(), in.stepId()), meta);
        String key = WindowStats.scopeKey(in.runId(), in.stepId(), in.op());
        ScopeState s = scopes.get(key);
        if (s == null) {
            return; // a scope without any window (an op that never ran): nothing to summarize
        }
        if (!s.ended()) {
            StallDetector detector = new StallDetector(stallConfig, s.detector());
            List<Stall> ended = detector.finish();
            for (ScopeState.Rollup r : s.rollups()) {
                emitRollup(s, r);
            }
            s = new ScopeState(s.runId(), s.stepId(), s.op(), s.measureStartMs(), s.measureEndMs(), s.measured(),
                    s.lateCount(), s.trend(), detector.state(), List.of(), true);
            scopes.put(key, s);
            publishStalls(s, ended);
        }
        emitSummary(s, meta);
    }

    private void control(ControlEvent event) {
        runControl(event);
        if (event instanceof StepStarted e) {
            StepMeta m = meta(e.runId(), e.stepId());
            Set<String> producers = new TreeSet<>(m.producers());
            producers.add(e.producerId());
            steps.put(stepKey(e.runId(), e.stepId()), new StepMeta(m.runId(), m.stepId(), m.ops(),
                    m.blocksReceived(), producers, m.blocksSent(), m.clientBound()));
        } else if (event instanceof StepEnded e) {
            StepMeta m = meta(e.runId(), e.stepId());
            Map<String, Long> sent = new TreeMap<>(m.blocksSent());
            sent.put(e.producerId(), e.blocksSent());
            Set<String> producers = new TreeSet<>(m.producers());
            producers.add(e.producerId());
            StepMeta next = new StepMeta(m.runId(), m.stepId(), m.ops(), m.blocksReceived(), producers, sent,
                    m.clientBound());
            steps.put(stepKey(e.runId(), e.stepId()), next);
            ScopeState all = scopes.get(WindowStats.scopeKey(e.runId(), e.stepId(), WindowStats.ALL_OPS));
            if (all != null && all.ended()) {
                emitSummary(all, next);
            }
        } else if (event instanceof ClientHealth e && e.clientBound()) {
            StepMeta m = meta(e.runId(), e.stepId());
            if (!m.clientBound()) {
                steps.put(stepKey(e.runId(), e.stepId()), new StepMeta(m.runId(), m.stepId(), m.ops(),
                        m.blocksReceived(), m.producers(), m.blocksSent(), true));
            }
        }
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

    private void emitSummary(ScopeState s, StepMeta meta) {
        WindowAccumulator m = s.measured();
        Histogram h = m.latencies();
        long count = h.getTotalCount();
        boolean empty = count == 0;
        double seconds = s.measureStartMs() < 0 ? 0 : (s.measureEndMs() - s.measureStartMs()) / 1000.0;
        StallDetector detector = new StallDetector(stallConfig, s.detector());
        StepSummary summary = new StepSummary(s.runId(), s.stepId(), s.op(), s.measureStartMs(), s.measureEndMs(),
                count, m.errors(), m.errorsByClass(), m.queries(),
                seconds > 0 ? m.queries() / seconds : 0,
                seconds > 0 ? (count - m.errors()) / seconds : 0,
                empty ? 0 : h.getMean(),
                empty ? 0 : h.getValueAtPercentile(50),
                empty ? 0 : h.getValueAtPercentile(90),
                empty ? 0 : h.getValueAtPercentile(95),
                empty ? 0 : h.getValueAtPercentile(99),
                empty ? 0 : h.getValueAtPercentile(99.9),
                empty ? 0 : h.getMaxValue(),
                detector.stallCount(), detector.stallMs(),
                s.trend().slopePctPerHour(), s.trend().cv(), meta.clientBound(), s.lateCount(),
                // blocks belong to the step, not to an op: the "*" summary carries the figure (and is published
                // again whenever the accounting changes); an op's summary would freeze whatever was known at its end
                WindowStats.ALL_OPS.equals(s.op()) ? meta.missingBlocks() : -1,
                LatencyHistograms.toBase64(h), context.currentSystemTimeMs());
        context.forward(new Record<>(summary.key(), new StepOutput.Summary(summary), Math.max(0, s.measureEndMs())));
        runFigures(summary);
    }

    // ---- run summaries ----

    private void runControl(ControlEvent event) {
        long now = context.currentSystemTimeMs();
        if (event instanceof RunStarted e) {
            PlateauRule plan = PlateauRule.fromSettings(e.settings());
            runs.put(e.runId(), run(e.runId(), now).withPlateau(plan == null ? null : plan.minGainPct(),
                    plan == null ? null : plan.patience(), now));
        } else if (event instanceof StepStarted e) {
            String target = e.target() == null || e.target().name() == null ? "" : e.target().name();
            RunState.StepDesc desc = new RunState.StepDesc(e.stepId(), target,
                    e.target() == null ? null : e.target().product(), e.target() == null ? null : e.target().nodes(),
                    e.workload() == null ? "" : e.workload(), e.threads(), e.round());
            runs.put(e.runId(), run(e.runId(), now).withStep(desc, now));
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

    private void runFigures(StepSummary s) {
        RunState r = runs.get(s.runId());
        if (r == null) {
            return; // no StepStarted of the run (or dropped after its grace): nothing to group the step by
        }
        long now = context.currentSystemTimeMs();
        RunState next = r.withFigures(new RunState.StepFigures(s.stepId(), s.op(), s.count(), s.errors(), s.queries(),
                Math.max(0, s.measureEndEpochMs() - s.measureStartEpochMs()) / 1000.0, s.qps(), s.tps(),
                s.meanMicros(), s.p95Micros(), s.p99Micros()), now);
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
