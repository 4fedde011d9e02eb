package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Stage 3: per run (the task that owns the run's partition of the step input reads every closed window of the run's
 * scopes, plus the run's control events; runs are spread over the tasks), in window order per scope:
 * <ul>
 *   <li><b>stalls</b> — each scope's whole measured windows go through a {@link StallDetector}
 *       ({@link StallSeries}); the {@code "*"} scope's stalls are published as {@link StallEvent}s, open ones on every
 *       window they extend and once more when they end; {@code affectedOps} lists the ops whose own detector has a
 *       stall of the same kind overlapping it.</li>
 *   <li><b>roll-ups</b> — each window is merged into the open roll-up window of each configured size (measured parts
 *       included); a roll-up is emitted when a window of a later roll-up period arrives or the scope ends. A late
 *       correction of a roll-up window already emitted is emitted at once as a roll-up late correction
 *       ({@link Rollups}).</li>
 *   <li><b>summaries</b> — a {@link StepSummary} per scope, exact over the measured samples, published once the step
 *       is complete and again only when something changes it ({@link StepSummaries}).</li>
 *   <li><b>run summaries</b> — every step summary's figures are kept per run; when a {@code RunEnded} arrives a
 *       {@link RunSummary} (across rounds, sweeps and endpoints, {@link RunSummaryCalculator}) is published, and
 *       again on each later {@code RunEnded} (several producers) and each step summary published after it (the
 *       last step's summary usually comes after {@code RunEnded}: it crosses two repartitions, the control event
 *       none). Consumers keep the last record per run. A run's state is dropped {@link RunState#RUN_GRACE} (wall
 *       clock) after its last run summary, or {@link RunState#RUN_IDLE_LIMIT} after its last change if it never ends;
 *       a step summary of a dropped run is not reflected (the run summary published stands).</li>
 * </ul>
 * The rules are in those classes, as functions of values; this processor keeps their state in the stores, runs the
 * punctuations and forwards what they give, in the order they give it.
 *
 * <p>State is in change-logged key-value stores (JSON), so exactly-once holds across restarts. Not thread safe:
 * one instance per task.
 */
public final class StepProcessor implements Processor<String, StepInput, String, StepOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(StepProcessor.class);

    /** How often ended and idle runs are looked for. */
    static final Duration RUN_SWEEP_INTERVAL = Duration.ofMinutes(1);
    /** How often steps whose summaries wait for a producer's end are looked at. */
    static final Duration WAIT_SWEEP_INTERVAL = Duration.ofSeconds(1);

    private final StallSeries series;
    private final ScopeWindows scopeWindows;
    private final StepSummaries summaries;
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
        this.series = new StallSeries(stallConfig);
        this.scopeWindows = new ScopeWindows(new Rollups(rollupSizesMs), series);
        this.summaries = new StepSummaries(series, stepEndWait);
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
        long now = context.currentSystemTimeMs();
        switch (in.kind()) {
            case StepInput.WINDOW -> window(in, now);
            case StepInput.END -> end(in, now);
            case StepInput.CONTROL -> control(in.control(), now);
            case StepInput.DEAD_LETTER -> applyRun(in.runId(),
                    RunSummaries.deadLetter(runs.get(in.runId()), in.runId(), in.reason(), now), now);
            default -> throw new IllegalArgumentException("unknown step input kind '" + in.kind() + "' for run "
                    + in.runId());
        }
    }

    private void window(StepInput in, long now) {
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
            ScopeWindows.Applied next = scopeWindows.apply(s, w, in.late(),
                    meta.insideUnlessEarlyEndMs(StallSeries.PLANNED_END_MARGIN_MS));
            next.rollups().forEach(this::forwardRollup);
            publishStalls(next.scope(), next.stalls(), meta, now);
            scopes.put(key, next.scope());
            recheck |= next.scope().ended();
        }
        if (recheck) {
            check(w.runId(), w.stepId(), now);
        }
    }

    private void end(StepInput in, long now) {
        // the wait for missing producers counts from the first producer's end, which stage 2 saw first
        long endedAt = in.firstEndAtMs() > 0 ? Math.min(now, in.firstEndAtMs()) : now;
        StepMeta meta = meta(in.runId(), in.stepId()).withBlocks(in.blocks()).withEnd(in.op(), endedAt);
        steps.put(stepKey(in.runId(), in.stepId()), meta);
        String key = WindowStats.scopeKey(in.runId(), in.stepId(), in.op());
        ScopeState s = scopes.get(key);
        if (s != null && !s.ended()) {
            Rollups.closed(s).forEach(this::forwardRollup);
            scopes.put(key, s.endedNow());
        }
        check(in.runId(), in.stepId(), now);
    }

    private void control(ControlEvent event, long now) {
        applyRun(event.runId(), RunSummaries.control(runs.get(event.runId()), event, now), now);
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
                check(next.runId(), next.stepId(), now);
            }
        }
    }

    /** Publishes the summaries of the step's ended scopes that are due or changed ({@link StepSummaries}). */
    private void check(String runId, int stepId, long now) {
        StepMeta meta = meta(runId, stepId);
        boolean waitedOut = summaries.waitedOut(meta, now);
        boolean waiting = false;
        for (String op : StepSummaries.order(meta)) {
            String key = WindowStats.scopeKey(runId, stepId, op);
            ScopeState s = scopes.get(key);
            if (s == null || !s.ended()) {
                continue;
            }
            StepSummaries.Publication p = summaries.publish(s, meta, waitedOut, now);
            if (p == null) {
                waiting = true;
                continue;
            }
            publishStalls(p.scope(), p.stalls(), meta, now);
            StepSummary summary = p.summary();
            if (summary != null) {
                context.forward(new Record<>(summary.key(), new StepOutput.Summary(summary),
                        Math.max(0, summary.measureEndEpochMs())));
                applyRun(summary.runId(), RunSummaries.stepSummary(runs.get(summary.runId()), summary, now), now);
            }
            scopes.put(key, p.scope());
        }
        String stepKey = stepKey(runId, stepId);
        steps.put(stepKey, meta.withAwaiting(waiting));
        if (waiting) {
            awaiting.add(stepKey);
        } else {
            awaiting.remove(stepKey);
        }
    }

    private void publishWaitedOut(long now) {
        List<String> due = new ArrayList<>();
        for (String stepKey : awaiting) {
            StepMeta m = steps.get(stepKey);
            if (m == null || m.firstEndAtMs() < 0 || summaries.waitedOut(m, now)) {
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
                    + "blocks {})", stepKey, summaries.stepEndWaitMs(), m.producers(), m.blocksSent().keySet(),
                    m.missingBlocks());
            check(m.runId(), m.stepId(), context.currentSystemTimeMs());
        }
    }

    /**
     * Forwards the stall events of a {@code "*"} scope's stalls; affectedOps reads the op scopes stored now, with their
     * held windows fed as provisionally as the {@code "*"} scope's.
     */
    private void publishStalls(ScopeState s, List<Stall> stalls, StepMeta meta, long now) {
        if (stalls.isEmpty() || !WindowStats.ALL_OPS.equals(s.op())) {
            return;
        }
        long until = meta.insideUnlessEarlyEndMs(StallSeries.PLANNED_END_MARGIN_MS);
        Map<String, StallDetector.State> opDetectors = new HashMap<>();
        for (String op : meta.ops()) {
            ScopeState o = scopes.get(WindowStats.scopeKey(s.runId(), s.stepId(), op));
            if (o != null) {
                opDetectors.put(op, series.provisionalState(o, until));
            }
        }
        for (StallEvent event : series.events(s, stalls, opDetectors, now)) {
            context.forward(new Record<>(event.key(), new StepOutput.Stall(event), event.startEpochMs()));
        }
    }

    private void forwardRollup(WindowStats rollup) {
        context.forward(new Record<>(rollup.scopeKey(), new StepOutput.Rollup(rollup), rollup.windowStartEpochMs()));
    }

    /** Stores a run's change and forwards its run summary, if any. */
    private void applyRun(String runId, RunSummaries.Change change, long now) {
        if (change == null) {
            return;
        }
        runs.put(runId, change.run());
        RunSummary summary = change.summary();
        if (summary != null) {
            context.forward(new Record<>(summary.key(), new StepOutput.RunSummaryOut(summary), now));
        }
    }

    private void dropFinishedRuns(long now) {
        List<String> drop = new ArrayList<>();
        try (KeyValueIterator<String, RunState> it = runs.all()) {
            while (it.hasNext()) {
                KeyValue<String, RunState> e = it.next();
                if (e.value.expired(now)) {
                    drop.add(e.key);
                }
            }
        }
        for (String run : drop) {
            runs.delete(run);
            LOG.debug("run {}: run-summary state dropped", run);
        }
    }

    private StepMeta meta(String runId, int stepId) {
        StepMeta m = steps.get(stepKey(runId, stepId));
        return m == null ? StepMeta.start(runId, stepId) : m;
    }

    private static String stepKey(String runId, int stepId) {
        return runId + "/" + stepId;
    }
}
