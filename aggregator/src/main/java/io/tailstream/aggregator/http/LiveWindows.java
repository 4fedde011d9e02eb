package io.tailstream.aggregator.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.analysis.counters.ServerLines;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The live monitor's view of a running aggregator: the last {@code windowsKept} base windows of every scope
 * (run, step, op), the stalls of every step, each step's whole course from its roll-ups ({@link StepTimeline}) and
 * each producer's client health, fed by the topology as it emits them ({@link TopologyListener}) or, after a
 * restart, by {@link LiveReplay}; and the Micrometer meters that expose the latest figures.
 *
 * <p>Why a listener and not a consumer of the output topics or a store: the windows are already in hand on the
 * stream thread, so there is no second consumer group, no deserialization and no extra changelog; the cost is one
 * map update per closed window and scope. Windows are replaced by (scope, window start) and stalls by their key, so a
 * record seen twice (a late correction, or a transaction retried after a crash) is counted once. A record of an
 * aborted transaction is not taken back; it is replaced when the window is processed again.
 *
 * <p>Scope: each aggregator instance sees the windows of the partitions it owns and the stalls of the runs whose
 * stage-3 partition it owns. At most {@code maxRuns} runs are kept; the run whose newest window is oldest is dropped
 * (with its meters) when a new one arrives.
 *
 * <p>Thread safe: written by stream threads, read by the HTTP server's threads; readers get copies.
 */
public final class LiveWindows implements TopologyListener {

    /** Windows kept per scope by default: two minutes of 1 s windows. */
    public static final int DEFAULT_WINDOWS_KEPT = 120;
    /** Runs kept by default. */
    public static final int DEFAULT_MAX_RUNS = 32;
    /** Ended stalls kept per step for the timeline; {@link #runs()} shows the newest {@link #ENDED_STALLS_SHOWN}. */
    private static final int ENDED_STALLS_KEPT = 1_000;
    private static final int ENDED_STALLS_SHOWN = 20;

    private final MeterRegistry registry;
    private final int windowsKept;
    private final int maxRuns;
    private final Map<String, Run> runs = new ConcurrentHashMap<>();

    public LiveWindows(MeterRegistry registry) {
        this(registry, DEFAULT_WINDOWS_KEPT, DEFAULT_MAX_RUNS);
    }

    public LiveWindows(MeterRegistry registry, int windowsKept, int maxRuns) {
        this.registry = Objects.requireNonNull(registry, "registry");
        if (windowsKept < 1) {
            throw new IllegalArgumentException("windowsKept must be at least 1, got " + windowsKept);
        }
        if (maxRuns < 1) {
            throw new IllegalArgumentException("maxRuns must be at least 1, got " + maxRuns);
        }
        this.windowsKept = windowsKept;
        this.maxRuns = maxRuns;
    }

    @Override
    public void onWindow(WindowStats window) {
        Step step = step(window.runId(), window.stepId());
        step.scope(window.op()).add(window);
        if (WindowStats.ALL_OPS.equals(window.op())) {
            step.timeline.window(window);
        }
    }

    /** The all-ops roll-ups make the step's timeline. */
    @Override
    public void onRollup(WindowStats rollup) {
        if (WindowStats.ALL_OPS.equals(rollup.op())) {
            step(rollup.runId(), rollup.stepId()).timeline.rollup(rollup);
        }
    }

    @Override
    public void onStall(StallEvent stall) {
        step(stall.runId(), stall.stepId()).stall(stall);
    }

    /** Per-producer series from {@code client_health} and {@code step_ended} ({@link ProducerGauges}). */
    @Override
    public void onControl(ControlEvent event) {
        if (event instanceof ClientHealth h) {
            run(h.runId()).producer(h.producerId()).health(h);
        } else if (event instanceof StepEnded e) {
            run(e.runId()).producer(e.producerId()).ended(e);
        } else if (event instanceof ServerCounters c) {
            step(c.runId(), c.stepId()).timeline.server(c);
        }
    }

    /** Counts it in {@code tailstream_deadletters_total{topic, reason}} (kept for the process's life). */
    @Override
    public void onDeadLetter(String topic, String reason, String runId) {
        Counter.builder("tailstream.deadletters").description("Input records sent to the dead-letter topic")
                .tags("topic", topic, "reason", reason).register(registry).increment();
    }

    /** The newest {@code limit} windows of a scope, newest first (empty if the scope is unknown). */
    public List<WindowStats> windows(String runId, int stepId, String op, int limit) {
        Run run = runs.get(runId);
        Step step = run == null ? null : run.steps.get(stepId);
        Scope scope = step == null ? null : step.scopes.get(op);
        return scope == null ? List.of() : scope.newest(limit);
    }

    /** Every run and step known, with the latest window of each op and the stalls. */
    public List<RunView> runs() {
        List<RunView> out = new ArrayList<>();
        for (Run run : runs.values()) {
            List<StepView> steps = new ArrayList<>();
            for (Step step : run.steps.values()) {
                steps.add(step.view(ENDED_STALLS_SHOWN));
            }
            steps.sort(Comparator.comparingInt(StepView::step));
            out.add(new RunView(run.id, steps));
        }
        out.sort(Comparator.comparing(RunView::run));
        return out;
    }

    /**
     * A step's whole course so far: its roll-up points, soak figures and stalls (the newest
     * {@value #ENDED_STALLS_KEPT} ended ones and every open one, by start); null if the step is unknown.
     */
    TimelineView timeline(String runId, int stepId) {
        Run run = runs.get(runId);
        Step step = run == null ? null : run.steps.get(stepId);
        if (step == null) {
            return null;
        }
        StepView now = step.view(Integer.MAX_VALUE);
        List<StallEvent> stalls = new ArrayList<>(now.endedStalls());
        stalls.addAll(now.openStalls());
        stalls.sort(Comparator.comparingLong(StallEvent::startEpochMs));
        return new TimelineView(step.timeline.points(), step.timeline.trend(), stalls,
                now.errorsTotal().getOrDefault(WindowStats.ALL_OPS, 0L), step.timeline.serverLines());
    }

    /** The producers of a run with their latest client health (empty if the run is unknown). */
    List<ProducerGauges.Health> producers(String runId) {
        Run run = runs.get(runId);
        if (run == null) {
            return List.of();
        }
        List<ProducerGauges.Health> out = new ArrayList<>();
        run.producers.forEach((id, gauges) -> out.add(gauges.view(id)));
        out.sort(Comparator.comparing(ProducerGauges.Health::producerId));
        return out;
    }

    /** A step's timeline ({@link #timeline}). */
    record TimelineView(List<StepTimeline.Point> points, StepTimeline.Trend trend, List<StallEvent> stalls,
                        long errorsTotal, ServerLines.Lines server) {}

    /** A run's steps. */
    public record RunView(String run, List<StepView> steps) {}

    /**
     * A step's latest figures.
     *
     * @param latest       the newest window of each op ({@code *} = all ops), by op
     * @param errorsTotal  errors of all windows seen, by op
     * @param openStalls   stalls still open
     * @param endedStalls  the last stalls that ended, newest first
     */
    public record StepView(String run, int step, Map<String, WindowStats> latest, Map<String, Long> errorsTotal,
                           List<StallEvent> openStalls, List<StallEvent> endedStalls) {}

    private Step step(String runId, int stepId) {
        Run run = run(runId);
        return run.steps.computeIfAbsent(stepId, id -> new Step(runId, id));
    }

    private Run run(String runId) {
        Run run = runs.get(runId);
        if (run == null) {
            synchronized (runs) {
                run = runs.get(runId);
                if (run == null) {
                    evictIfFull();
                    run = new Run(runId);
                    runs.put(runId, run);
                }
            }
        }
        return run;
    }

    private void evictIfFull() {
        while (runs.size() >= maxRuns) {
            Run oldest = runs.values().stream().min(Comparator.comparingLong(Run::newestWindowEpochMs)).orElseThrow();
            runs.remove(oldest.id);
            for (Step step : oldest.steps.values()) {
                step.meters.forEach(registry::remove);
                for (Scope scope : step.scopes.values()) {
                    scope.meters.forEach(registry::remove);
                }
            }
            oldest.producers.values().forEach(p -> p.meters.forEach(registry::remove));
        }
    }

    private final class Run {
        final String id;
        final Map<Integer, Step> steps = new ConcurrentHashMap<>();
        final Map<String, ProducerGauges> producers = new ConcurrentHashMap<>();

        Run(String id) {
            this.id = id;
        }

        ProducerGauges producer(String producerId) {
            return producers.computeIfAbsent(producerId, p -> new ProducerGauges(registry, id, p));
        }

        long newestWindowEpochMs() {
            long newest = Long.MIN_VALUE;
            for (Step step : steps.values()) {
                for (Scope scope : step.scopes.values()) {
                    WindowStats w = scope.latest;
                    if (w != null) {
                        newest = Math.max(newest, w.windowStartEpochMs());
                    }
                }
            }
            return newest;
        }
    }

    private final class Step {
        final String runId;
        final int stepId;
        final Map<String, Scope> scopes = new ConcurrentHashMap<>();
        /** Open stalls by key. */
        final Map<String, StallEvent> open = new ConcurrentHashMap<>();
        /** Ended stalls by key, at most {@link #ENDED_STALLS_KEPT} (guarded by this). */
        final NavigableMap<String, StallEvent> ended = new TreeMap<>();
        final StepTimeline timeline = new StepTimeline();
        final List<Meter> meters;

        Step(String runId, int stepId) {
            this.runId = runId;
            this.stepId = stepId;
            this.meters = List.of(Gauge.builder("tailstream.stalls.open", open, Map::size)
                    .description("Stalls of the step that are open now")
                    .tags(tags(runId, stepId, WindowStats.ALL_OPS)).register(registry));
        }

        Scope scope(String op) {
            return scopes.computeIfAbsent(op, o -> new Scope(runId, stepId, o));
        }

        void stall(StallEvent stall) {
            synchronized (this) {
                if (stall.open()) {
                    if (!ended.containsKey(stall.key())) {
                        open.put(stall.key(), stall);
                    }
                } else if (stall.withdrawn()) {
                    open.remove(stall.key());
                    ended.remove(stall.key());
                } else {
                    open.remove(stall.key());
                    ended.put(stall.key(), stall);
                    while (ended.size() > ENDED_STALLS_KEPT) {
                        String first = ended.values().stream()
                                .min(Comparator.comparingLong(StallEvent::startEpochMs)).orElseThrow().key();
                        ended.remove(first);
                    }
                }
            }
        }

        /** The step's latest figures, with at most {@code endedShown} ended stalls, the newest. */
        StepView view(int endedShown) {
            Map<String, WindowStats> latest = new TreeMap<>();
            Map<String, Long> errors = new TreeMap<>();
            for (Scope scope : scopes.values()) {
                WindowStats w = scope.latest;
                if (w != null) {
                    latest.put(scope.op, w);
                }
                errors.put(scope.op, scope.errorsTotal());
            }
            List<StallEvent> openNow = new ArrayList<>(open.values());
            openNow.sort(Comparator.comparingLong(StallEvent::startEpochMs));
            List<StallEvent> endedNow;
            synchronized (this) {
                endedNow = new ArrayList<>(ended.values());
            }
            endedNow.sort(Comparator.comparingLong(StallEvent::startEpochMs).reversed());
            endedNow = endedNow.subList(0, Math.min(endedShown, endedNow.size()));
            return new StepView(runId, stepId, latest, errors, openNow, endedNow);
        }
    }

    private final class Scope {
        final String op;
        /** Windows by start (guarded by this). */
        private final NavigableMap<Long, WindowStats> windows = new TreeMap<>();
        /** Errors of the windows seen; corrections add their difference (guarded by this). */
        private long errorsTotal;
        /** The window with the greatest start. */
        volatile WindowStats latest;
        final List<Meter> meters;

        Scope(String runId, int stepId, String op) {
            this.op = op;
            Tags tags = tags(runId, stepId, op);
            this.meters = List.of(
                    gauge("tailstream.window.qps", "Statements of successful transactions per second of the latest "
                            + "window", tags, WindowStats::qps),
                    gauge("tailstream.window.tps", "Successful transactions per second of the latest window", tags,
                            WindowStats::tps),
                    gauge("tailstream.window.errors.per.second", "Failed transactions per second of the latest window",
                            tags, WindowStats::errorsPerSecond),
                    gauge("tailstream.window.p95.seconds", "P95 latency of the latest window's successful "
                            + "transactions", tags, w -> w.p95Micros() / 1e6),
                    gauge("tailstream.window.p99.seconds", "P99 latency of the latest window's successful "
                            + "transactions", tags, w -> w.p99Micros() / 1e6),
                    gauge("tailstream.window.count", "Samples completed in the latest window", tags,
                            w -> w.count()),
                    FunctionCounter.builder("tailstream.window.errors", this, s -> s.errorsTotal())
                            .description("Errors of every window seen").tags(tags).register(registry));
        }

        private Meter gauge(String name, String description, Tags tags, ToDoubleFunction<WindowStats> value) {
            return Gauge.builder(name, this, s -> {
                WindowStats w = s.latest;
                return w == null ? Double.NaN : value.applyAsDouble(w);
            }).description(description).tags(tags).register(registry);
        }

        synchronized void add(WindowStats window) {
            WindowStats previous = windows.put(window.windowStartEpochMs(), window);
            errorsTotal += window.errors() - (previous == null ? 0 : previous.errors());
            while (windows.size() > windowsKept) {
                windows.pollFirstEntry();
            }
            WindowStats newest = windows.lastEntry().getValue();
            latest = newest;
        }

        synchronized long errorsTotal() {
            return errorsTotal;
        }

        synchronized List<WindowStats> newest(int limit) {
            List<WindowStats> out = new ArrayList<>(Math.min(limit, windows.size()));
            for (WindowStats w : windows.descendingMap().values()) {
                if (out.size() >= limit) {
                    break;
                }
                out.add(w);
            }
            return out;
        }
    }

    private static Tags tags(String runId, int stepId, String op) {
        return Tags.of("run", runId, "step", Integer.toString(stepId), "op", op);
    }
}
