package io.tailstream.producer;

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
import io.tailstream.producer.health.RoundTripProbe;
import io.tailstream.producer.server.ServerCounterSampler;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.event.DataChecked;
import io.tailstream.schemas.event.RttProbe;
import io.tailstream.schemas.event.Secrets;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs the steps of one run, one at a time, each with its control events: describes the target (with its data size
 * where the dialect reads it cheaply), measures the round trip, agrees the start with the other producers of a shared
 * run and takes this producer's share, publishes {@code StepStarted}, drives the workers with the {@link StepDriver}
 * (the server's counters read meanwhile), finishes the step's emission whatever the outcome, publishes
 * {@code StepEnded}, then the workload's checks of the data ({@code DataChecked}, TPC-C's consistency conditions).
 * One per run, used from the run's thread only; remembers whether any step was client-bound, for {@code RunEnded}.
 */
final class StepRunner {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StepRunner.class);

    /** A step that starts this much after the agreed time says so. */
    static final long LATE_START_NOTE_MS = 250;

    private final RunPlan plan;
    private final SampleSink sink;
    private final PrintStream console;
    private final Clock clock;
    private final StopSignal stopSignal;
    private final StepCoordinator coordinator;
    private final ServerCounterSampler counters;
    /** Whether any step of the run was client-bound (for RunEnded). */
    private boolean clientBound;

    StepRunner(RunPlan plan, SampleSink sink, PrintStream console, Clock clock, StopSignal stopSignal,
               StepCoordinator coordinator, ServerCounterSampler counters) {
        this.plan = plan;
        this.sink = sink;
        this.console = console;
        this.clock = clock;
        this.stopSignal = stopSignal;
        this.coordinator = coordinator;
        this.counters = counters;
    }

    /** Whether any step run so far was client-bound. */
    boolean clientBound() {
        return clientBound;
    }

    /**
     * Runs {@code spec} on {@code tc}.
     *
     * @return the step's result, partial when it failed or was interrupted; null when this producer does not run it
     *         (the producers of a shared run started it without this one or left it no threads or transactions, or
     *         the run was stopped while the step waited for its start)
     */
    StepResult run(TargetConnections tc, RoundTripProbe rtt, StepDriver driver, StepSpec spec, WorkloadSpec ws,
                   ClientHealthMonitor health) {
        Workload workload = spec.workload();
        TargetInfo info = tc.describe(plan.variables());
        Map<String, String> options = new TreeMap<>(workload.options());
        options.putAll(ws.expectations());
        // every step, where the dialect reads it cheaply: the report compares it with the buffer pool
        Long bytes = tc.dataBytes(workload.tables());
        if (bytes != null) {
            Map<String, String> vars = new TreeMap<>(info.variables());
            vars.put(TargetInfo.DATA_BYTES_VARIABLE, Long.toString(bytes));
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
                : String.format(Locale.ROOT, ", round trip p50 %.1f µs p99 %.1f µs", roundTrip.p50Micros(),
                roundTrip.p99Micros()))
                + (tc.embedded() ? "; embedded: the database runs on the workers' threads, so client-bound is not"
                + " judged" : ""));
        StepCoordinator.Start start = coordinator.awaitStart(spec.stepId(), spec.threads(),
                () -> stopSignal.reason() != null);
        if (!start.runs()) {
            console.println("== " + spec.describe() + ": not run here, " + start.reason());
            return null;
        }
        StepSpec mine = share(spec, start);
        if (mine == null) {
            console.println("== " + spec.describe() + ": not run here, its transaction count leaves this producer"
                    + " none");
            return null;
        }
        spec = mine;
        if (start.startAtEpochMs() != null) {
            console.printf(Locale.ROOT, "== %s: starts at %s with %s%n", spec.describe(),
                    Instant.ofEpochMilli(start.startAtEpochMs()), String.join(", ", start.participants()));
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
        counters.stepStarted(spec.stepId());
        try {
            result = driver.run(spec, tc.dataSourceFor(spec.workload()), tc.dialect(), emission, stopSignal,
                    tc.target().redactedUrl());
        } catch (StepFailedException e) {
            result = e.partial();
        }
        ClientHealthMonitor.StepHealth stepHealth = health.stepEnded();
        counters.stepEnded();
        // always finished, so downstream windows of a failed or interrupted step close too
        StepEmission.StepCounts counts = emission.finish();
        clientBound |= stepHealth.clientBound();
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
        if (stopSignal.reason() == null) {
            checkData(tc, spec, start);
        }
        return result;
    }

    /**
     * The workload's checks of the data the step left, by the step's first producer only (the others would check
     * the same data), published and printed; an error that kept them from running is published as their result.
     */
    private void checkData(TargetConnections tc, StepSpec spec, StepCoordinator.Start start) {
        Workload workload = spec.workload();
        if (!workload.checksData()
                || !start.participants().isEmpty() && !start.participants().get(0).equals(sink.producerId())) {
            return;
        }
        long atMs = nowMs();
        long t0 = System.nanoTime();
        List<DataChecked.Check> checks = List.of();
        String error = null;
        try (Connection c = tc.dataSourceFor(workload).getConnection()) {
            checks = workload.checkData(c, tc.dialect());
        } catch (SQLException e) {
            error = Secrets.redactUrl(SqlErrors.describe(e));
        }
        DataChecked checked = new DataChecked(plan.runId(), atMs, sink.producerId(), spec.stepId(),
                spec.targetName(), workload.name(), checks, (System.nanoTime() - t0) / 1000, error);
        sink.publish(checked);
        console.printf(Locale.ROOT, "== %s: data checked in %.1f s: %s%n", spec.describe(),
                checked.readMicros() / 1e6, error != null ? "could not check: " + error
                        : checks.stream().map(k -> k.name() + (k.held() ? " holds" : " BROKEN: " + k.detail()))
                                .collect(Collectors.joining(", ")));
    }

    /**
     * This producer's part of a step the producers of a shared run agreed on: its threads, where its workers stand
     * among all the step's, and (threads split) its share of the transaction limit and of the open-loop rate, in
     * proportion to its threads; null when the transaction limit leaves it none.
     */
    private StepSpec share(StepSpec spec, StepCoordinator.Start start) {
        if (start.participants().isEmpty()) {
            return spec;
        }
        boolean split = plan.producers().splitThreads();
        ProducerGroup.Workers workers = ProducerGroup.workers(spec.threads(), start.participants(),
                sink.producerId(), split);
        if (!split) {
            return new StepSpec(spec.stepId(), spec.targetName(), spec.workload(), spec.threads(), spec.round(),
                    spec.warmup(), spec.measure(), spec.intervalSeconds(), spec.ignoredErrors(), spec.transactions(),
                    spec.rate(), workers.first(), workers.all());
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
                spec.warmup(), spec.measure(), spec.intervalSeconds(), spec.ignoredErrors(), transactions, rate,
                workers.first(), workers.all());
    }

    /** Waits for the agreed start; false when the run was stopped meanwhile. */
    private boolean waitUntil(long startAtEpochMs, StepSpec spec) {
        long late = nowMs() - startAtEpochMs;
        if (late > LATE_START_NOTE_MS) {
            console.printf(Locale.ROOT, "== %s: starts %d ms after the time the producers agreed on (this"
                    + " machine's clock or its reading of the control topic is behind)%n", spec.describe(), late);
        }
        long left;
        while ((left = startAtEpochMs - nowMs()) > 0) {
            if (stopSignal.reason() != null) {
                return false;
            }
            clock.park(TimeUnit.MILLISECONDS.toNanos(Math.min(left, 50)));
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

    private long nowMs() {
        return clock.epochMicros() / 1000;
    }
}
