package io.tailstream.producer.driver;

import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.health.ThreadCpuSource;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.time.EpochAnchor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Runs one step: {@code threads} workers, warm-up then measurement, in closed loop (no think time) or, when the step
 * has a rate, open loop (each worker starts transactions at its share of the rate, see {@link OpenLoopPacer}); the
 * measurement ends at its duration or after the step's transaction budget, whichever comes first. Each call runs one
 * step and returns when every worker has stopped and handed over its last samples. Thread safe (no shared state
 * between calls).
 */
public final class StepDriver {

    private final Clock clock;
    private final PrintStream console;
    private final LoadGenThreads loadGen;
    private final StepWatcher watcher;

    /**
     * @param console receives interval lines ({@code [ 10s ] thds: 8 tps: ...}); never null
     */
    public StepDriver(Clock clock, PrintStream console) {
        this(clock, console, new LoadGenThreads(ThreadCpuSource.jvm()));
    }

    /**
     * @param console receives interval lines ({@code [ 10s ] thds: 8 tps: ...}); never null
     * @param loadGen where the workers register, so their CPU counts as the load generator's
     */
    public StepDriver(Clock clock, PrintStream console, LoadGenThreads loadGen) {
        this(clock, console, loadGen, UNREACHABLE_AFTER);
    }

    /**
     * @param console          receives interval lines ({@code [ 10s ] thds: 8 tps: ...}); never null
     * @param loadGen          where the workers register, so their CPU counts as the load generator's
     * @param unreachableAfter how long no worker of a step may hold a connection before the step fails as
     *                         unreachable (the reconnect budget); > 0
     */
    public StepDriver(Clock clock, PrintStream console, LoadGenThreads loadGen,
                            java.time.Duration unreachableAfter) {
        if (unreachableAfter.isNegative() || unreachableAfter.isZero()) {
            throw new IllegalArgumentException("unreachableAfter must be > 0, was " + unreachableAfter);
        }
        this.clock = clock;
        this.console = console;
        this.loadGen = loadGen;
        this.watcher = new StepWatcher(clock, console, unreachableAfter);
    }

    /**
     * How long, by default, no worker of a step may hold a connection before the step fails as {@code target '<name>'
     * unreachable}: long enough for a server restart or a failover to complete, short enough that a target gone for
     * good does not hold a long step to its end.
     */
    public static final java.time.Duration UNREACHABLE_AFTER = java.time.Duration.ofSeconds(10);

    /**
     * Runs the step to its end.
     *
     * @throws StepFailedException if a worker could not connect or hit an error that is not ignored
     */
    public StepResult run(StepSpec spec, DataSource dataSource, Dialect dialect, StepEmission emission) {
        return run(spec, dataSource, dialect, emission, new StopSignal());
    }

    /**
     * Runs the step until its end or until {@code stop} is signalled: then the workers end at their next
     * transaction boundary, the measurement ends with their last transaction, and the result's outcome is
     * {@code interrupted: <reason>}.
     *
     * @throws StepFailedException if a worker could not connect or hit an error that is not ignored; its partial
     *                             result says {@code failed: <reason>}
     */
    public StepResult run(StepSpec spec, DataSource dataSource, Dialect dialect, StepEmission emission,
                          StopSignal stop) {
        return run(spec, dataSource, dialect, emission, stop, "target '" + spec.targetName() + "'");
    }

    /**
     * As {@link #run(StepSpec, DataSource, Dialect, StepEmission, StopSignal)}, naming the target in the console's
     * lines about lost connections as {@code targetLabel} (its URL without credentials).
     */
    public StepResult run(StepSpec spec, DataSource dataSource, Dialect dialect, StepEmission emission,
                          StopSignal stop, String targetLabel) {
        StepRun run = new StepRun(spec, dataSource, dialect, loadGen, new ConnectionFaults(targetLabel, console,
                ConnectionFaults.debugFromEnvironment()));
        stop.attach(run);
        try {
            return run(run, emission);
        } finally {
            stop.detach(run);
        }
    }

    private StepResult run(StepRun run, StepEmission emission) {
        StepSpec spec = run.spec;
        EpochAnchor anchor = EpochAnchor.now(clock);
        List<Worker> workers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        // far future until every worker is ready, so no worker starts early
        run.endNanos = clock.nanoTime() + TimeUnit.DAYS.toNanos(365);
        run.measureStartNanos = run.endNanos;
        for (int i = 0; i < spec.threads(); i++) {
            Worker w = new Worker(run, i, emission.writer(), clock, anchor);
            workers.add(w);
            Thread t = new Thread(w, "tailstream-worker-" + spec.stepId() + "-" + i);
            t.setDaemon(true);
            loadGen.register(t);
            threads.add(t);
            t.start();
        }
        uninterruptibly(run.ready::await);
        // on whole microseconds of the anchor, so a sample's floored start µs is before the measurement start
        // exactly when its start in ns is (and the boundaries are exact in the step's events)
        long startNanos = onMicro(anchor, clock.nanoTime());
        run.startNanos = startNanos;
        run.measureStartNanos = onMicro(anchor, startNanos + spec.warmup().toNanos());
        run.endNanos = run.measureStartNanos + spec.measure().toNanos();
        run.start.countDown();
        watcher.watch(run, workers, threads, startNanos);
        long doneNanos = startNanos;
        for (int i = 0; i < threads.size(); i++) {
            uninterruptibly(threads.get(i)::join);
            doneNanos = Math.max(doneNanos, workers.get(i).lastEndNanos);
        }
        // ended early (transaction budget, stop, failure) the measurement ends with the last transaction; by time at
        // the nominal end, or later when the last transactions overran it
        long measureEnd = run.endedEarly() ? doneNanos : Math.max(doneNanos, run.endNanos);
        StepResult.Phases phases = new StepResult.Phases(anchor.epochMicros(startNanos),
                anchor.epochMicros(run.measureStartNanos),
                anchor.epochMicros(Math.max(measureEnd, run.measureStartNanos)));
        StepResult result = StepTally.of(spec, workers, phases);
        StepRun.Failure f = run.failure.get();
        if (f != null) {
            throw new StepFailedException(spec.describe(), f.reason(), f.cause(),
                    result.withOutcome("failed: " + f.reason()));
        }
        return run.interruptReason == null ? result : result.withOutcome("interrupted: " + run.interruptReason);
    }

    /** The latest instant at or before {@code nanos} that is a whole number of µs after the anchor. */
    static long onMicro(EpochAnchor anchor, long nanos) {
        return nanos - Math.floorMod(nanos - anchor.anchorNanos(), 1_000L);
    }

    /** A wait that may be interrupted. */
    private interface Wait {
        void run() throws InterruptedException;
    }

    /** Runs {@code wait} to its end through interrupts, then restores the interrupt flag if one came. */
    private static void uninterruptibly(Wait wait) {
        boolean interrupted = false;
        while (true) {
            try {
                wait.run();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
