package io.tailstream.producer;

import io.tailstream.producer.driver.ClosedLoopDriver;
import io.tailstream.producer.driver.StepFailedException;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.driver.StepSpec;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.emit.SpoolingTransport;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.health.ClientHealthMonitor;
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
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.Secrets;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a {@link RunPlan}: for each target (one connection pool), optionally prepares the workloads' data, then runs
 * every step (workload x threads x round) with the {@link ClosedLoopDriver}, emitting samples and control events
 * ({@code RunStarted}, {@code StepStarted} with the target's metadata, {@code StepEnded}, {@code RunEnded}) to the
 * sink. A step that fails ends the run: its emission is still finished (end markers sent), {@code StepEnded} and
 * {@code RunEnded} say {@code failed: ...}, and the exception's message names the target and step.
 *
 * <p>Not thread safe: one run at a time per runner.
 */
public final class BenchmarkRunner {

    /** Client health is sampled and published once a second. */
    static final java.time.Duration HEALTH_PERIOD = java.time.Duration.ofSeconds(1);

    private final SampleSink sink;
    private final PrintStream console;
    private final Clock clock;
    /** Whether any step of the current run was client-bound (for RunEnded). */
    private boolean runClientBound;

    public BenchmarkRunner(SampleSink sink, PrintStream console) {
        this(sink, console, Clock.system());
    }

    public BenchmarkRunner(SampleSink sink, PrintStream console, Clock clock) {
        this.sink = sink;
        this.console = console;
        this.clock = clock;
    }

    /**
     * Runs a plan against Kafka at {@code bootstrapServers} (topics must exist, e.g. via infra's
     * {@code TopicProvisioner}), with the default producer id and emitter settings.
     */
    public static RunResult run(RunPlan plan, String bootstrapServers, PrintStream console) {
        return run(plan, bootstrapServers, console, null);
    }

    /**
     * Runs a plan against Kafka, spooling blocks to {@code spool}'s directory while the broker is slow or away
     * ({@code null}: no spool, a broker that stays away fails the run after Kafka's delivery timeout).
     */
    public static RunResult run(RunPlan plan, String bootstrapServers, PrintStream console, SpoolSettings spool) {
        RunResult result;
        SpoolingTransport.SpoolStats stats;
        try (KafkaSampleSink sink = KafkaSampleSink.create(bootstrapServers, plan.runId(), defaultProducerId(),
                Map.of(), EmitterSettings.defaults(), spool)) {
            result = new BenchmarkRunner(sink, console).run(plan);
            stats = sink.spoolStats();
        }
        if (stats != null && (stats.blocksSpooled() > 0 || stats.controlEventsSpooled() > 0)) {
            console.printf(java.util.Locale.ROOT, "spool: %,d blocks and %,d control events (%,d bytes, at most %,d"
                    + " at once) went through %s while Kafka was slow or away (%d episode(s)); all replayed%n",
                    stats.blocksSpooled(), stats.controlEventsSpooled(), stats.bytesSpooled(), stats.highWaterBytes(),
                    stats.path().getParent(), stats.episodes());
        }
        return result;
    }

    /** {@code host-pid}: unique per process on a machine, readable in reports. */
    public static String defaultProducerId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        if (host.length() > 64) {
            host = host.substring(0, 64);
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /**
     * Runs every step of the plan.
     *
     * @throws TargetException     if a target cannot be reached (message names it)
     * @throws StepFailedException if a step fails (message names target and step)
     */
    public RunResult run(RunPlan plan) {
        List<StepResult> results = new ArrayList<>();
        runClientBound = false;
        sink.takeSpoolHighWaterBytes();
        List<TargetInfo> announced = plan.targets().stream().map(TargetConnections::describeOffline).toList();
        sink.publish(new RunStarted(plan.runId(), nowMs(), sink.producerId(), plan.planName(), announced,
                clientInfo(), settings(plan)));
        String outcome = "completed";
        List<TargetConnections> probePools = new ArrayList<>();
        try (ClientHealthMonitor health = new ClientHealthMonitor(plan.runId(), sink, plan.clientCpuLimitPct(),
                HEALTH_PERIOD, clock, console)) {
            try {
                // one connection per target for the SELECT 1 probe, apart from the workers' pools; this also checks
                // every target is reachable before the first step
                Map<String, javax.sql.DataSource> probes = new LinkedHashMap<>();
                for (Target target : plan.targets()) {
                    TargetConnections p = TargetConnections.open(target, 1);
                    probePools.add(p);
                    probes.put(target.name(), p.dataSource());
                }
                health.probe(probes);
                int stepId = 0;
                for (Target target : plan.targets()) {
                    // workers + one for metadata
                    try (TargetConnections tc = TargetConnections.open(target, plan.maxThreads() + 1)) {
                        if (plan.prepare()) {
                            prepare(tc, plan.workloads(), console);
                        }
                        stepId = runTarget(plan, tc, health, results, stepId);
                    }
                }
            } finally {
                // before the probe pools close: no probe left running on them
                health.probe(Map.of());
                probePools.forEach(TargetConnections::close);
            }
        } catch (RuntimeException e) {
            outcome = "failed: " + e.getMessage();
            try {
                publishRunEnded(plan, outcome);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        publishRunEnded(plan, outcome);
        return new RunResult(plan.runId(), plan.planName(), sink.producerId(), results, sink.blocksSent(),
                sink.samplesSent());
    }

    /** Every step on one target, the plateau stop included; returns the last step id used. */
    private int runTarget(RunPlan plan, TargetConnections tc, ClientHealthMonitor health, List<StepResult> results,
                          int lastStepId) {
        int stepId = lastStepId;
        Target target = tc.target();
        ClosedLoopDriver driver = new ClosedLoopDriver(clock, console);
        for (WorkloadSpec ws : plan.workloads()) {
            Workload workload = Workloads.create(ws);
            List<Double> levelQps = new ArrayList<>();
            for (int threads : plan.threads()) {
                double qpsSum = 0;
                for (int round = 1; round <= plan.rounds(); round++) {
                    stepId++;
                    StepSpec spec = new StepSpec(stepId, target.name(), workload, threads, round, plan.warmup(),
                            plan.measure(), plan.intervalSeconds(), plan.ignoredErrorsFor(target), plan.transactions(),
                            plan.rate());
                    StepResult r = runStep(plan, tc, driver, spec, ws, health);
                    results.add(r);
                    qpsSum += r.qps();
                }
                levelQps.add(qpsSum / plan.rounds());
                if (plan.plateau() != null && plan.plateau().reached(levelQps)) {
                    console.println(plateauLine(target, workload, plan, levelQps));
                    break;
                }
            }
        }
        return stepId;
    }

    private static String plateauLine(Target target, Workload workload, RunPlan plan, List<Double> levelQps) {
        int peak = 0;
        for (int i = 1; i < levelQps.size(); i++) {
            if (levelQps.get(i) > levelQps.get(peak)) {
                peak = i;
            }
        }
        return String.format(java.util.Locale.ROOT,
                "== plateau: %s on '%s' gained less than %.1f%% QPS for %d level(s); peak %.2f qps at %d threads;"
                        + " higher thread counts skipped", workload.name(), target.name(),
                plan.plateau().minGainPct(), plan.plateau().patience(), levelQps.get(peak),
                plan.threads().get(peak));
    }

    private StepResult runStep(RunPlan plan, TargetConnections tc, ClosedLoopDriver driver, StepSpec spec,
                               WorkloadSpec ws, ClientHealthMonitor health) {
        Workload workload = spec.workload();
        TargetInfo info = tc.describe(plan.variables());
        Map<String, String> options = new java.util.TreeMap<>(workload.options());
        options.putAll(ws.expectations());
        if (ws.expectsDataLargerThanBufferPool()) {
            // the report compares it with the buffer pool; unknown (not captured) on other dialects
            Long bytes = tc.dataBytes(workload.tables());
            if (bytes != null) {
                Map<String, String> vars = new java.util.TreeMap<>(info.variables());
                vars.put(TargetConnections.DATA_BYTES_VARIABLE, Long.toString(bytes));
                info = new TargetInfo(info.name(), info.url(), info.product(), info.version(), vars,
                        info.monthlyCost(), info.currency(), info.nodes(), info.notes(), info.costItems());
            }
        }
        console.println("== " + spec.describe() + ": " + info.product() + " " + info.version() + " (driver: "
                + info.variables().get(TargetConnections.JDBC_DRIVER_VARIABLE) + "), ignoring "
                + labels(spec.ignoredErrors()));
        sink.publish(new StepStarted(plan.runId(), nowMs(), sink.producerId(), spec.stepId(), info, workload.name(),
                spec.threads(), spec.round(), spec.warmup().toMillis(), spec.measure().toMillis(), workload.ops(),
                workload.queriesPerTransaction(), options));
        SpoolingTransport.SpoolStats spoolBefore = sink.spoolStats();
        sink.takeSpoolHighWaterBytes();
        StepEmission emission = sink.beginStep(spec.stepId(), workload.ops(), spec.openLoop());
        StepResult result;
        StepFailedException failure = null;
        health.stepStarted(spec.stepId());
        try {
            result = driver.run(spec, tc.dataSourceFor(spec.workload()), tc.dialect(), emission);
        } catch (StepFailedException e) {
            failure = e;
            result = e.partial();
        }
        ClientHealthMonitor.StepHealth stepHealth = health.stepEnded();
        // always finished, so downstream windows of a failed step close too
        StepEmission.StepCounts counts = emission.finish();
        long errors = result == null ? 0 : result.errors();
        runClientBound |= stepHealth.clientBound();
        SpoolingTransport.SpoolStats spoolAfter = sink.spoolStats();
        long stepSpoolPeak = sink.takeSpoolHighWaterBytes();
        StepResult.Phases phases = result == null ? null : result.phases();
        sink.publish(new StepEnded(plan.runId(), nowMs(), sink.producerId(), spec.stepId(), counts.samplesSent(),
                counts.blocksSent(), errors, failure == null ? "completed" : "failed: " + failure.getMessage(),
                stepHealth.clientBound(), spoolAfter == null ? 0 : spoolAfter.blocksSpooled()
                        - spoolBefore.blocksSpooled(), spoolAfter == null ? 0 : spoolAfter.controlEventsSpooled()
                        - spoolBefore.controlEventsSpooled(), stepSpoolPeak,
                phases == null ? null : phases.startEpochMicros(),
                phases == null ? null : phases.measureStartEpochMicros(),
                phases == null ? null : phases.measureEndEpochMicros(), spec.threads(),
                result == null ? 0L : result.reconnects(), null, null));
        if (failure != null) {
            throw failure;
        }
        result = result.withEmission(counts.samplesSent(), counts.blocksSent(), counts.backpressureNanos() / 1e6)
                .withClientCpu(stepHealth.clientBound(), stepHealth.maxProcessCpuPct(), -1, -1);
        console.println(result.summary());
        return result;
    }

    private void publishRunEnded(RunPlan plan, String outcome) {
        SpoolingTransport.SpoolStats spool = sink.spoolStats();
        sink.publish(new RunEnded(plan.runId(), nowMs(), sink.producerId(), sink.blocksSent(), sink.samplesSent(),
                outcome, runClientBound, spool == null ? 0 : spool.blocksSpooled(),
                spool == null ? 0 : spool.controlEventsSpooled(), spool == null ? 0 : spool.highWaterBytes()));
    }

    /**
     * Creates and loads the tables of {@code workloads} on {@code target} (once per distinct data set), replacing
     * existing ones.
     *
     * @param parallelism tables loaded at once
     */
    public static void prepare(Target target, List<WorkloadSpec> workloads, int parallelism, PrintStream console) {
        prepare(target, workloads, parallelism, console, LoadProgress.NONE);
    }

    /**
     * Creates and loads the tables of {@code workloads} on {@code target}, telling {@code rows} about every row
     * inserted (in total {@link #rowsToLoad}).
     */
    public static void prepare(Target target, List<WorkloadSpec> workloads, int parallelism, PrintStream console,
                               LoadProgress rows) {
        try (TargetConnections tc = TargetConnections.open(target, Math.max(1, parallelism))) {
            prepare(tc, workloads, console, rows);
        }
    }

    /** Rows {@link #prepare} inserts for {@code workloads}: each distinct data set once. */
    public static long rowsToLoad(List<WorkloadSpec> workloads) {
        Set<String> done = new LinkedHashSet<>();
        long rows = 0;
        for (WorkloadSpec ws : workloads) {
            Workload w = Workloads.create(ws);
            if (done.add(w.dataSetKey())) {
                rows += w.rowsToLoad();
            }
        }
        return rows;
    }

    /** Drops the tables of {@code workloads} on {@code target}. */
    public static void cleanup(Target target, List<WorkloadSpec> workloads, PrintStream console) {
        try (TargetConnections tc = TargetConnections.open(target, 1)) {
            Set<String> done = new LinkedHashSet<>();
            for (WorkloadSpec ws : workloads) {
                Workload w = Workloads.create(ws);
                if (done.add(w.dataSetKey())) {
                    try {
                        w.cleanup(tc.dataSource(), tc.dialect(), console);
                    } catch (SQLException e) {
                        throw new TargetException("cleanup of " + w.name() + " on target '" + target.name()
                                + "' failed: " + SqlErrors.describe(e), e);
                    }
                }
            }
        }
    }

    private static void prepare(TargetConnections tc, List<WorkloadSpec> workloads, PrintStream console) {
        prepare(tc, workloads, console, LoadProgress.NONE);
    }

    private static void prepare(TargetConnections tc, List<WorkloadSpec> workloads, PrintStream console,
                                LoadProgress rows) {
        Set<String> done = new LinkedHashSet<>();
        for (WorkloadSpec ws : workloads) {
            Workload w = Workloads.create(ws);
            if (done.add(w.dataSetKey())) {
                console.println("Preparing " + w.name() + " on target '" + tc.target().name() + "'");
                try {
                    w.prepare(tc.dataSource(), tc.dialect(), tc.size(), console, rows);
                } catch (SQLException e) {
                    throw new TargetException("prepare of " + w.name() + " on target '" + tc.target().name()
                            + "' failed: " + SqlErrors.describe(e), e);
                }
            }
        }
    }

    private long nowMs() {
        return clock.epochMicros() / 1000;
    }

    private static Map<String, String> clientInfo() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("host", defaultProducerId().replaceAll("-\\d+$", ""));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + Runtime.version());
        m.put("cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("maxHeapMb", String.valueOf(Runtime.getRuntime().maxMemory() / (1024 * 1024)));
        return m;
    }

    /** Error classes as a sorted list of labels: {@code [deadlock, lock_wait_timeout]}. */
    static String labels(Set<io.tailstream.schemas.block.SampleStatus> classes) {
        return classes.stream().map(io.tailstream.schemas.block.SampleStatus::label).sorted().toList().toString();
    }

    /** The effective plan, secrets masked (URLs redacted, passwords never read), as RunStarted carries it. */
    static Map<String, String> settings(RunPlan plan) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("threads", plan.threads().toString());
        m.put("rounds", String.valueOf(plan.rounds()));
        m.put("warmupMs", String.valueOf(plan.warmup().toMillis()));
        m.put("measureMs", String.valueOf(plan.measure().toMillis()));
        m.put("transactions", plan.transactions() == null ? "none" : String.valueOf(plan.transactions()));
        m.put("loop", plan.rate() == null ? "closed" : "open");
        m.put("rate", plan.rate() == null ? "none" : String.valueOf(plan.rate()));
        m.put("plateau", plan.plateau() == null ? "none" : "minGainPct=" + plan.plateau().minGainPct()
                + ", patience=" + plan.plateau().patience());
        m.put("clientCpuLimitPct", String.valueOf(plan.clientCpuLimitPct()));
        m.put("intervalSeconds", String.valueOf(plan.intervalSeconds()));
        m.put("prepare", String.valueOf(plan.prepare()));
        m.put("ignoredErrors", plan.ignoredErrors() == null ? "product default" : labels(plan.ignoredErrors()));
        m.put("accept", plan.accept().toString());
        if (plan.variables() != null) {
            m.put("variables", plan.variables().toString());
        }
        for (Target t : plan.targets()) {
            String p = "target." + t.name() + ".";
            m.put(p + "url", t.redactedUrl());
            m.put(p + "ignoredErrors", labels(plan.ignoredErrorsFor(t)));
            if (!t.readOnlyUrls().isEmpty()) {
                m.put(p + "readOnlyUrls", t.readOnlyUrls().stream().map(Secrets::redactUrl).toList().toString());
            }
            if (t.user() != null) {
                m.put(p + "user", t.user());
            }
            m.put(p + "password", "***");
            if (t.monthlyCost() != null) {
                m.put(p + "monthlyCost", t.monthlyCost() + (t.currency() == null ? "" : " " + t.currency()));
            }
            if (t.nodes() != null) {
                m.put(p + "nodes", String.valueOf(t.nodes()));
            }
            if (t.notes() != null) {
                m.put(p + "notes", t.notes());
            }
        }
        for (WorkloadSpec w : plan.workloads()) {
            m.put("workload." + w.name(), Workloads.create(w).options().toString());
        }
        return m;
    }
}
