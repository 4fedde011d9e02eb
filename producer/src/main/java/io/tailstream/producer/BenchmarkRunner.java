package io.tailstream.producer;

import io.tailstream.analysis.SweepPeak;
import io.tailstream.producer.driver.StepDriver;
import io.tailstream.producer.driver.StepFailedException;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.driver.StepSpec;
import io.tailstream.producer.driver.StopSignal;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolingTransport;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.group.StepCoordinator;
import io.tailstream.producer.health.ClientHealthMonitor;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.health.RoundTripProbe;
import io.tailstream.producer.health.ThreadCpuSource;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TargetException;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RttProbe;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link RunPlan}: for each target (one connection pool), optionally prepares the workloads' data, then runs
 * every step (workload x threads x round) with the {@link StepDriver}, emitting samples and control events
 * ({@code RunStarted}, {@code StepStarted} with the target's metadata, {@code StepEnded}, {@code RunEnded}) to the
 * sink. A step that fails, a target that cannot be reached or a {@link #stop} request ends the run cleanly: the
 * step's emission is still finished (end markers sent), {@code StepEnded} and {@code RunEnded} say {@code failed:
 * ...} or {@code interrupted: ...}, and {@link #run} returns what ran.
 * {@link #run(RunPlan, KafkaEmission, PrintStream, java.util.function.Consumer)} runs a plan with a sink to Kafka.
 *
 * <p>One run at a time per runner; {@link #stop} may be called from any thread.
 */
public final class BenchmarkRunner {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BenchmarkRunner.class);

    /** Client health is sampled and published once a second. */
    static final java.time.Duration HEALTH_PERIOD = java.time.Duration.ofSeconds(1);
    /** A step that starts this much after the agreed time says so. */
    static final long LATE_START_NOTE_MS = 250;

    private final SampleSink sink;
    private final PrintStream console;
    private final Clock clock;
    private final StopSignal stopSignal = new StopSignal();
    private final StepCoordinator coordinator;
    /** Whether any step of the current run was client-bound (for RunEnded). */
    private boolean runClientBound;

    public BenchmarkRunner(SampleSink sink, PrintStream console) {
        this(sink, console, Clock.system());
    }

    public BenchmarkRunner(SampleSink sink, PrintStream console, Clock clock) {
        this(sink, console, clock, StepCoordinator.alone());
    }

    /**
     * A runner whose steps start when {@code coordinator} says: with the other producers of a shared run
     * ({@link RunPlan#producers()}).
     */
    public BenchmarkRunner(SampleSink sink, PrintStream console, Clock clock, StepCoordinator coordinator) {
        this.sink = sink;
        this.console = console;
        this.clock = clock;
        this.coordinator = coordinator;
    }

    /** Where this runner's samples and events go (its spool and counters, for a metrics endpoint). */
    public SampleSink sink() {
        return sink;
    }

    /**
     * Runs a plan with its samples and control events emitted to Kafka as {@code emission} says (the topics must
     * exist, e.g. via infra's {@code TopicProvisioner}), handing the runner to {@code started} before the run begins,
     * so the caller can {@link #stop} it (from a shutdown hook, say). A run shared by several producers
     * ({@link RunPlan#producers()}) agrees each step's start with the others over Kafka.
     */
    public static RunResult run(RunPlan plan, KafkaEmission emission, PrintStream console,
                                java.util.function.Consumer<BenchmarkRunner> started) {
        return KafkaRun.run(plan, emission, console, started);
    }

    /**
     * Opens one connection to every endpoint of every target (the primary and each read-only URL) and closes it
     * again: what a caller runs before {@link #run} publishes anything, so a wrong password, a refused connection
     * or an unknown database is reported before the run starts.
     *
     * @throws TargetException for the first endpoint that cannot be reached; its one-line message names the target,
     *                         its redacted URL and the driver's reason, never the password
     */
    public static void checkTargets(RunPlan plan) {
        for (Target target : plan.targets()) {
            TargetConnections.open(target, 1).close();
        }
    }

    /**
     * Asks the running {@link #run} to stop: the running step's workers stop at their next transaction boundary,
     * the step ends with outcome {@code interrupted: <reason>}, no further step starts, {@code RunEnded} says
     * {@code interrupted: <reason>}, and {@code run} returns normally. Thread safe, callable from a shutdown hook;
     * the first reason is kept, and a runner once stopped starts no further step, in this run or a later one.
     */
    public void stop(String reason) {
        stopSignal.stop(reason);
    }

    /**
     * Runs every step of the plan, until a step fails, a target cannot be reached or {@link #stop} is called: the
     * run then stops there, the failed or interrupted step's {@code StepEnded} and the {@code RunEnded} say why, and
     * the result holds every step that ran, the last one partial, with the run's outcome.
     *
     * @return the steps run and the run's outcome ({@link RunResult#completed()} false when it did not run to its
     *         end)
     * @throws RuntimeException only when emission itself fails (samples or events cannot be delivered, the spool
     *                          reached its limit); {@code RunEnded} is then attempted with {@code failed: <reason>}
     */
    public RunResult run(RunPlan plan) {
        List<StepResult> results = new ArrayList<>();
        runClientBound = false;
        sink.takeSpoolHighWaterBytes();
        List<TargetInfo> announced = plan.targets().stream().map(TargetConnections::describeOffline).toList();
        sink.publish(new RunStarted(plan.runId(), nowMs(), sink.producerId(), plan.planName(), announced,
                ClientEnvironment.describe(), EffectiveSettings.of(plan)));
        String outcome;
        LoadGenThreads loadGen = new LoadGenThreads(ThreadCpuSource.jvm());
        loadGen.recognise(sink::ownsThread);
        try (ClientHealthMonitor health = new ClientHealthMonitor(plan.runId(), sink, plan.clientCpuLimitPct(),
                HEALTH_PERIOD, clock, console, loadGen)) {
            outcome = runTargets(plan, health, loadGen, results);
        } catch (RuntimeException e) {
            try {
                publishRunEnded(plan, "failed: " + e.getMessage());
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (!outcome.equals(StepResult.COMPLETED)) {
            console.println("== run " + plan.runId() + " " + outcome);
        }
        publishRunEnded(plan, outcome);
        return new RunResult(plan.runId(), plan.planName(), sink.producerId(), results, sink.blocksSent(),
                sink.samplesSent(), outcome);
    }

    /** Every target in turn; returns the run's outcome. */
    private String runTargets(RunPlan plan, ClientHealthMonitor health, LoadGenThreads loadGen,
                              List<StepResult> results) {
        int[] stepId = {0};
        for (Target target : plan.targets()) {
            if (stopSignal.reason() != null) {
                return "interrupted: " + stopSignal.reason();
            }
            String outcome;
            // the workers' pool (one more connection for metadata) and a connection of its own for the probes
            try (TargetConnections tc = TargetConnections.open(target, plan.maxThreads() + 1);
                 TargetConnections probe = TargetConnections.open(target, 1)) {
                RoundTripProbe rtt = new RoundTripProbe(probe.dataSource(), probe.dialect());
                health.probe(Map.of(target.name(), rtt));
                try {
                    if (plan.prepare()) {
                        WorkloadData.prepare(tc, plan.workloads(), console, LoadProgress.NONE);
                    }
                    outcome = runTarget(plan, tc, rtt, health, new StepDriver(clock, console, loadGen,
                            plan.reconnectTimeout()),
                            results, stepId);
                } finally {
                    // before the probe's pool closes: no probe left running on it
                    health.probe(Map.of());
                }
            } catch (TargetException e) {
                return "failed: " + e.getMessage();
            }
            if (!outcome.equals(StepResult.COMPLETED)) {
                return outcome;
            }
        }
        return StepResult.COMPLETED;
    }

    /**
     * Every step on one target, the plateau stop included; {@code stepId[0]} is the last step id used. Returns
     * {@code completed}, or the run's outcome when a step did not run to its end.
     */
    private String runTarget(RunPlan plan, TargetConnections tc, RoundTripProbe rtt, ClientHealthMonitor health,
                             StepDriver driver, List<StepResult> results, int[] stepId) {
        Target target = tc.target();
        for (WorkloadSpec ws : plan.workloads()) {
            Workload workload = Workloads.create(ws);
            List<Double> levelQps = new ArrayList<>();
            for (int threads : plan.threads()) {
                double qpsSum = 0;
                for (int round = 1; round <= plan.rounds(); round++) {
                    if (stopSignal.reason() != null) {
                        return "interrupted: " + stopSignal.reason();
                    }
                    stepId[0]++;
                    StepSpec spec = new StepSpec(stepId[0], target.name(), workload, threads, round, plan.warmup(),
                            plan.measure(), plan.intervalSeconds(), plan.ignoredErrorsFor(target),
                            plan.transactions(), plan.rate());
                    StepResult r;
                    try {
                        r = runStep(plan, tc, rtt, driver, spec, ws, health);
                    } catch (TargetException e) {
                        return "failed: " + spec.describe() + " could not start: " + e.getMessage();
                    }
                    if (r == null) {
                        continue; // the other producers of the run ran it without this one
                    }
                    results.add(r);
                    if (r.outcome().startsWith("failed: ")) {
                        return "failed: " + spec.describe() + " " + r.outcome();
                    }
                    if (!r.completed()) {
                        return r.outcome();
                    }
                    qpsSum += r.qps();
                }
                levelQps.add(qpsSum / plan.rounds());
                if (plan.plateau() != null && plan.plateau().reached(levelQps)) {
                    console.println(plateauLine(target, workload, plan, levelQps));
                    break;
                }
            }
        }
        return StepResult.COMPLETED;
    }

    private static String plateauLine(Target target, Workload workload, RunPlan plan, List<Double> levelQps) {
        int peak = SweepPeak.index(plan.threads().subList(0, levelQps.size()), levelQps);
        return String.format(java.util.Locale.ROOT,
                "== plateau: %s on '%s' gained less than %.1f%% QPS for %d level(s); peak %.2f qps at %d threads;"
                        + " higher thread counts skipped", workload.name(), target.name(),
                plan.plateau().minGainPct(), plan.plateau().patience(), levelQps.get(peak),
                plan.threads().get(peak));
    }

    private StepResult runStep(RunPlan plan, TargetConnections tc, RoundTripProbe rtt, StepDriver driver,
                               StepSpec spec, WorkloadSpec ws, ClientHealthMonitor health) {
        Workload workload = spec.workload();
        TargetInfo info = tc.describe(plan.variables());
        Map<String, String> options = new java.util.TreeMap<>(workload.options());
        options.putAll(ws.expectations());
        // every step, where the dialect reads it cheaply: the report compares it with the buffer pool
        Long bytes = tc.dataBytes(workload.tables());
        if (bytes != null) {
            Map<String, String> vars = new java.util.TreeMap<>(info.variables());
            vars.put(TargetConnections.DATA_BYTES_VARIABLE, Long.toString(bytes));
            info = new TargetInfo(info.name(), info.url(), info.product(), info.version(), vars,
                    info.monthlyCost(), info.currency(), info.nodes(), info.notes(), info.costItems());
        }
        // the per-second probe pauses, so the probe before the step has the idle connection to itself
        health.probe(Map.of());
        RttProbe roundTrip = probeRoundTrip(rtt, spec);
        health.probe(Map.of(spec.targetName(), rtt));
        console.println("== " + spec.describe() + ": " + info.product() + " " + info.version() + " (driver: "
                + info.variables().get(TargetConnections.JDBC_DRIVER_VARIABLE) + "), ignoring "
                + EffectiveSettings.labels(spec.ignoredErrors()) + (roundTrip == null ? ""
                : String.format(java.util.Locale.ROOT, ", round trip p50 %.1f µs p99 %.1f µs", roundTrip.p50Micros(),
                roundTrip.p99Micros()))
                + (tc.embedded() ? "; embedded: the database runs on the workers' threads, so client-bound is not"
                + " judged" : ""));
        StepCoordinator.Start start = coordinator.awaitStart(spec.stepId(), spec.threads(),
                () -> stopSignal.reason() != null);
        if (!start.runs()) {
            console.println("== " + spec.describe() + ": not run here, " + start.reason());
            return null;
        }
        StepSpec mine = share(plan, spec, start);
        if (mine == null) {
            console.println("== " + spec.describe() + ": not run here, its transaction count leaves this producer"
                    + " none");
            return null;
        }
        spec = mine;
        if (start.startAtEpochMs() != null) {
            console.printf(java.util.Locale.ROOT, "== %s: starts at %s with %s%n", spec.describe(),
                    java.time.Instant.ofEpochMilli(start.startAtEpochMs()), String.join(", ", start.participants()));
            if (!waitUntil(start.startAtEpochMs(), spec)) {
                return null;
            }
        }
        sink.publish(new StepStarted(plan.runId(), nowMs(), sink.producerId(), spec.stepId(), info, workload.name(),
                spec.threads(), spec.round(), spec.warmup().toMillis(), spec.measure().toMillis(), workload.ops(),
                workload.queriesPerTransaction(), options, roundTrip, start.startAtEpochMs(), start.participants()));
        SpoolingTransport.SpoolStats spoolBefore = sink.spoolStats();
        sink.takeSpoolHighWaterBytes();
        StepEmission emission = sink.beginStep(spec.stepId(), workload.ops(), spec.openLoop());
        StepResult result;
        health.stepStarted(spec.stepId(), tc.embedded());
        try {
            result = driver.run(spec, tc.dataSourceFor(spec.workload()), tc.dialect(), emission, stopSignal,
                    tc.target().redactedUrl());
        } catch (StepFailedException e) {
            result = e.partial();
        }
        ClientHealthMonitor.StepHealth stepHealth = health.stepEnded();
        // always finished, so downstream windows of a failed or interrupted step close too
        StepEmission.StepCounts counts = emission.finish();
        runClientBound |= stepHealth.clientBound();
        SpoolingTransport.SpoolStats spoolAfter = sink.spoolStats();
        long stepSpoolPeak = sink.takeSpoolHighWaterBytes();
        result = result.withEmission(counts.samplesSent(), counts.blocksSent(), counts.backpressureNanos() / 1e6)
                .withClientCpu(stepHealth.clientBound(), stepHealth.maxLoadGenCpuPct(),
                        stepHealth.meanLoadGenCpuPct(), stepHealth.meanProcessCpuPct());
        StepResult.Phases phases = result.phases();
        sink.publish(new StepEnded(plan.runId(), nowMs(), sink.producerId(), spec.stepId(), counts.samplesSent(),
                counts.blocksSent(), result.errors(), result.outcome(), stepHealth.clientBound(),
                spoolAfter == null ? 0 : spoolAfter.blocksSpooled() - spoolBefore.blocksSpooled(),
                spoolAfter == null ? 0 : spoolAfter.controlEventsSpooled() - spoolBefore.controlEventsSpooled(),
                stepSpoolPeak, phases.startEpochMicros(), phases.measureStartEpochMicros(),
                phases.measureEndEpochMicros(), spec.threads(), result.reconnects(),
                result.loadGenCpuPct() < 0 ? null : result.loadGenCpuPct(),
                result.processCpuPct() < 0 ? null : result.processCpuPct()));
        console.println(result.summary());
        return result;
    }

    /**
     * This producer's part of a step the producers of a shared run agreed on: its threads, and (threads split) its
     * share of the transaction limit and of the open-loop rate, in proportion to its threads; null when the
     * transaction limit leaves it none.
     */
    private StepSpec share(RunPlan plan, StepSpec spec, StepCoordinator.Start start) {
        if (start.participants().isEmpty() || !plan.producers().splitThreads()) {
            return spec;
        }
        Long transactions = spec.transactions();
        if (transactions != null) {
            long mine = ProducerGroup.share(transactions, start.participants(), sink.producerId());
            if (mine == 0) {
                return null;
            }
            transactions = mine;
        }
        Double rate = spec.rate() == null ? null : spec.rate() * start.threads() / spec.threads();
        return new StepSpec(spec.stepId(), spec.targetName(), spec.workload(), start.threads(), spec.round(),
                spec.warmup(), spec.measure(), spec.intervalSeconds(), spec.ignoredErrors(), transactions, rate);
    }

    /** Waits for the agreed start; false when the run was stopped meanwhile. */
    private boolean waitUntil(long startAtEpochMs, StepSpec spec) {
        long late = nowMs() - startAtEpochMs;
        if (late > LATE_START_NOTE_MS) {
            console.printf(java.util.Locale.ROOT, "== %s: starts %d ms after the time the producers agreed on (this"
                    + " machine's clock or its reading of the control topic is behind)%n", spec.describe(), late);
        }
        long left;
        while ((left = startAtEpochMs - nowMs()) > 0) {
            if (stopSignal.reason() != null) {
                return false;
            }
            clock.park(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(Math.min(left, 50)));
        }
        return true;
    }

    /** The round trip just before the step (no worker runs), or null when the probe failed (logged). */
    private RttProbe probeRoundTrip(RoundTripProbe rtt, StepSpec spec) {
        try {
            return rtt.measure();
        } catch (SQLException e) {
            log.warn("round-trip probe before {} failed: {}", spec.describe(), SqlErrors.describe(e));
            return null;
        }
    }

    private void publishRunEnded(RunPlan plan, String outcome) {
        SpoolingTransport.SpoolStats spool = sink.spoolStats();
        sink.publish(new RunEnded(plan.runId(), nowMs(), sink.producerId(), sink.blocksSent(), sink.samplesSent(),
                outcome, runClientBound, spool == null ? 0 : spool.blocksSpooled(),
                spool == null ? 0 : spool.controlEventsSpooled(), spool == null ? 0 : spool.highWaterBytes()));
    }

    private long nowMs() {
        return clock.epochMicros() / 1000;
    }
}
