package io.tailstream.producer;

import io.tailstream.analysis.SweepPeak;
import io.tailstream.producer.driver.StepDriver;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.driver.StepSpec;
import io.tailstream.producer.driver.StopSignal;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolingTransport;
import io.tailstream.producer.group.StepCoordinator;
import io.tailstream.producer.health.ClientHealthMonitor;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.health.RoundTripProbe;
import io.tailstream.producer.health.ThreadCpuSource;
import io.tailstream.producer.server.ServerCounterSampler;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TargetException;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a {@link RunPlan}: for each target (one connection pool), optionally prepares the workloads' data, then runs
 * every step (workload x threads x round) with the {@link StepDriver}, emitting samples and control events
 * ({@code RunStarted}, {@code StepStarted} with the target's metadata, {@code StepEnded}, {@code RunEnded}) to the
 * sink; a thread sweep stops early at its plateau ({@link RunPlan#plateau()}). A step that fails, a target that cannot
 * be reached or a {@link #stop} request ends the run cleanly: the step's emission is still finished (end markers
 * sent), {@code StepEnded} and {@code RunEnded} say {@code failed: ...} or {@code interrupted: ...}, and
 * {@link #run} returns what ran. {@link #run(RunPlan, KafkaEmission, PrintStream, Consumer)} runs a plan with a sink
 * to Kafka.
 *
 * <p>One run at a time per runner; {@link #stop} may be called from any thread.
 */
public final class BenchmarkRunner {

    /** Client health and the server's counters are sampled and published once a second. */
    static final Duration HEALTH_PERIOD = Duration.ofSeconds(1);

    private final SampleSink sink;
    private final PrintStream console;
    private final Clock clock;
    private final StopSignal stopSignal = new StopSignal();
    private final StepCoordinator coordinator;

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
                                Consumer<BenchmarkRunner> started) {
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
        sink.takeSpoolHighWaterBytes();
        List<TargetInfo> announced = plan.targets().stream().map(TargetConnections::describeOffline).toList();
        sink.publish(new RunStarted(plan.runId(), nowMs(), sink.producerId(), plan.planName(), announced,
                ClientEnvironment.describe(), EffectiveSettings.of(plan)));
        String outcome;
        LoadGenThreads loadGen = new LoadGenThreads(ThreadCpuSource.jvm());
        loadGen.recognise(sink::ownsThread);
        ServerCounterSampler counters = new ServerCounterSampler(plan.runId(), sink, HEALTH_PERIOD, clock, loadGen);
        StepRunner steps = new StepRunner(plan, sink, console, clock, stopSignal, coordinator, counters);
        try (counters; ClientHealthMonitor health = new ClientHealthMonitor(plan.runId(), sink,
                plan.clientCpuLimitPct(), HEALTH_PERIOD, clock, console, loadGen)) {
            outcome = runTargets(plan, steps, health, counters, loadGen, results);
        } catch (RuntimeException e) {
            try {
                publishRunEnded(plan, "failed: " + e.getMessage(), steps.clientBound());
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (!outcome.equals(StepResult.COMPLETED)) {
            console.println("== run " + plan.runId() + " " + outcome);
        }
        publishRunEnded(plan, outcome, steps.clientBound());
        return new RunResult(plan.runId(), plan.planName(), sink.producerId(), results, sink.blocksSent(),
                sink.samplesSent(), outcome);
    }

    /** Every target in turn; returns the run's outcome. */
    private String runTargets(RunPlan plan, StepRunner steps, ClientHealthMonitor health,
                              ServerCounterSampler counters, LoadGenThreads loadGen, List<StepResult> results) {
        int[] stepId = {0};
        for (Target target : plan.targets()) {
            if (stopSignal.reason() != null) {
                return "interrupted: " + stopSignal.reason();
            }
            String outcome;
            // the workers' pool (one more connection for metadata), a connection of its own for the probes and one
            // for the server's counters
            try (TargetConnections tc = TargetConnections.open(target, plan.maxThreads() + 1);
                 TargetConnections probe = TargetConnections.open(target, 1);
                 TargetConnections counterConnection = plan.serverCounters() ? TargetConnections.open(target, 1)
                         : null) {
                RoundTripProbe rtt = new RoundTripProbe(probe.dataSource(), probe.dialect());
                health.probe(Map.of(target.name(), rtt));
                if (counterConnection != null) {
                    counters.target(target.name(), counterConnection.dataSource(), counterConnection.dialect());
                }
                try {
                    if (plan.prepare()) {
                        WorkloadData.prepare(tc, plan.workloads(), console, LoadProgress.NONE);
                    }
                    outcome = runTarget(plan, steps, tc, rtt, health, new StepDriver(clock, console, loadGen,
                            plan.reconnectTimeout()),
                            results, stepId);
                } finally {
                    // before the pools close: no probe or reading left running on them
                    health.probe(Map.of());
                    counters.noTarget();
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
    private String runTarget(RunPlan plan, StepRunner steps, TargetConnections tc, RoundTripProbe rtt,
                             ClientHealthMonitor health, StepDriver driver, List<StepResult> results, int[] stepId) {
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
                        r = steps.run(tc, rtt, driver, spec, ws, health);
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
        return String.format(Locale.ROOT,
                "== plateau: %s on '%s' gained less than %.1f%% QPS for %d level(s); peak %.2f qps at %d threads;"
                        + " higher thread counts skipped", workload.name(), target.name(),
                plan.plateau().minGainPct(), plan.plateau().patience(), levelQps.get(peak),
                plan.threads().get(peak));
    }

    private void publishRunEnded(RunPlan plan, String outcome, boolean clientBound) {
        SpoolingTransport.SpoolStats spool = sink.spoolStats();
        sink.publish(new RunEnded(plan.runId(), nowMs(), sink.producerId(), sink.blocksSent(), sink.samplesSent(),
                outcome, clientBound, spool == null ? 0 : spool.blocksSpooled(),
                spool == null ? 0 : spool.controlEventsSpooled(), spool == null ? 0 : spool.highWaterBytes()));
    }

    private long nowMs() {
        return clock.epochMicros() / 1000;
    }
}
