package io.tailstream.producer.driver;

import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.health.ThreadCpuSource;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.time.EpochAnchor;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.HdrHistogram.Histogram;

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
    private final java.time.Duration unreachableAfter;

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
        this.unreachableAfter = unreachableAfter;
    }

    /**
     * How long, by default, no worker of a step may hold a connection before the step fails as {@code target '<name>'
     * unreachable}: long enough for a server restart or a failover to complete, short enough that a target gone for
     * good does not hold a long step to its end.
     */
    public static final java.time.Duration UNREACHABLE_AFTER = java.time.Duration.ofSeconds(10);

    /** The reporter looks at the workers at least this often (step end, stop, connections). */
    static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** State shared by the workers of one step. */
    static final class Run {
        final StepSpec spec;
        final DataSource dataSource;
        final Dialect dialect;
        final LoadGenThreads loadGen;
        final long seedBase = new SplittableRandom().nextLong();
        final CountDownLatch ready;
        final CountDownLatch start = new CountDownLatch(1);
        final AtomicReference<StepFailure> failure = new AtomicReference<>();
        /** Measured transactions left to start, or null when the step is measured by time only. */
        final AtomicLong remaining;
        /** Workers holding a connection and session now. */
        final AtomicInteger connected = new AtomicInteger();
        /** The last reason a worker lost its connection or could not get one back, or null. */
        volatile String lastConnectionError;
        /** The console's lines about lost connections. */
        final ConnectionFaults faults;
        volatile boolean stop;
        /** Why the step was asked to stop, or null. */
        volatile String interruptReason;
        volatile long startNanos;
        volatile long measureStartNanos;
        volatile long endNanos;

        Run(StepSpec spec, DataSource dataSource, Dialect dialect, LoadGenThreads loadGen, ConnectionFaults faults) {
            this.spec = spec;
            this.faults = faults;
            this.dataSource = dataSource;
            this.dialect = dialect;
            this.loadGen = loadGen;
            this.ready = new CountDownLatch(spec.threads());
            this.remaining = spec.transactions() == null ? null : new AtomicLong(spec.transactions());
        }

        boolean budgetUsed() {
            return remaining != null && remaining.get() <= 0;
        }

        void fail(String reason, Throwable cause) {
            failure.compareAndSet(null, new StepFailure(reason, cause));
            stop = true;
        }

        /** A worker lost its connection, or an attempt to get one back failed. */
        void connectionLost(SQLException e) {
            lastConnectionError = ConnectionFaults.cause(e);
        }

        /** A stop request: the workers end at their next transaction boundary. */
        void interrupt(String reason) {
            interruptReason = reason;
            stop = true;
        }

        /** True if the measurement ended before its nominal end: budget used, stop requested, or a failure. */
        boolean endedEarly() {
            return budgetUsed() || interruptReason != null || failure.get() != null;
        }
    }

    record StepFailure(String reason, Throwable cause) {}

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
        Run run = new Run(spec, dataSource, dialect, loadGen, new ConnectionFaults(targetLabel, console,
                ConnectionFaults.debugFromEnvironment()));
        stop.attach(run);
        try {
            return run(run, emission);
        } finally {
            stop.detach(run);
        }
    }

    private StepResult run(Run run, StepEmission emission) {
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
        awaitUninterruptibly(run.ready);
        // on whole microseconds of the anchor, so a sample's floored start µs is before the measurement start
        // exactly when its start in ns is (and the boundaries are exact in the step's events)
        long startNanos = onMicro(anchor, clock.nanoTime());
        run.startNanos = startNanos;
        run.measureStartNanos = onMicro(anchor, startNanos + spec.warmup().toNanos());
        run.endNanos = run.measureStartNanos + spec.measure().toNanos();
        run.start.countDown();
        report(run, workers, threads, startNanos);
        long doneNanos = startNanos;
        for (int i = 0; i < threads.size(); i++) {
            joinUninterruptibly(threads.get(i));
            doneNanos = Math.max(doneNanos, workers.get(i).lastEndNanos);
        }
        // ended early (transaction budget, stop, failure) the measurement ends with the last transaction; by time at
        // the nominal end, or later when the last transactions overran it
        long measureEnd = run.endedEarly() ? doneNanos : Math.max(doneNanos, run.endNanos);
        StepResult.Phases phases = new StepResult.Phases(anchor.epochMicros(startNanos),
                anchor.epochMicros(run.measureStartNanos),
                anchor.epochMicros(Math.max(measureEnd, run.measureStartNanos)));
        StepResult result = result(spec, workers, phases);
        StepFailure f = run.failure.get();
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

    /**
     * Watches the workers until every one stopped: prints the interval lines, wakes workers waiting for a
     * connection once the step is over, and fails the step when no worker has had a connection for
     * the reconnect budget ({@link #UNREACHABLE_AFTER} unless the constructor was given another).
     */
    private void report(Run run, List<Worker> workers, List<Thread> threads, long startNanos) {
        long intervalNanos = TimeUnit.SECONDS.toNanos(Math.max(1, run.spec.intervalSeconds()));
        boolean print = run.spec.intervalSeconds() > 0;
        Histogram interval = new Histogram(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
        Histogram coInterval = new Histogram(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
        long[] prev = new long[4];
        long prevNanos = startNanos;
        long next = startNanos + intervalNanos;
        long noConnectionSince = -1;
        int n = 0;
        while (true) {
            long waitNanos = Math.min(next - clock.nanoTime(), WATCH_NANOS);
            if ((waitNanos > 0 && joinAll(threads, waitNanos)) || allDone(threads)) {
                run.faults.flush(clock.nanoTime(), true);
                return;
            }
            long nowNanos = clock.nanoTime();
            run.faults.flush(nowNanos, false);
            if (run.connected.get() > 0) {
                noConnectionSince = -1;
            } else if (noConnectionSince == -1) {
                noConnectionSince = nowNanos;
            } else if (nowNanos - noConnectionSince >= unreachableAfter.toNanos() && run.failure.get() == null) {
                run.fail("target '" + run.spec.targetName() + "' unreachable: " + run.lastConnectionError
                        + " (no worker had a connection for " + seconds(unreachableAfter) + ")", null);
            }
            if (run.stop || nowNanos - run.endNanos >= 0 || run.budgetUsed()) {
                for (int i = 0; i < workers.size(); i++) {
                    workers.get(i).wake(threads.get(i));
                }
            }
            if (nowNanos - next < 0) {
                continue;
            }
            n++;
            next += intervalNanos;
            if (!print) {
                continue;
            }
            long[] now = new long[4]; // ok, errors, queries, reconnects
            interval.reset();
            coInterval.reset();
            for (Worker w : workers) {
                w.counters.addTo(now);
                now[3] += w.counters.reconnects();
                w.intervalRecycle = w.recorder.getIntervalHistogram(w.intervalRecycle);
                interval.add(w.intervalRecycle);
                if (w.coRecorder != null) {
                    w.coIntervalRecycle = w.coRecorder.getIntervalHistogram(w.coIntervalRecycle);
                    coInterval.add(w.coIntervalRecycle);
                }
            }
            nowNanos = clock.nanoTime();
            // rates over the time that actually passed, not the nominal interval (the reporter may wake late)
            double secs = Math.max(1, nowNanos - prevNanos) / 1e9;
            String line = String.format(Locale.ROOT,
                    "[ %ds ] thds: %d tps: %.2f qps: %.2f lat (ms,95%%): %.2f err/s: %.2f reconn/s: %.2f",
                    n * run.spec.intervalSeconds(), run.spec.threads(), (now[0] - prev[0]) / secs,
                    (now[2] - prev[2]) / secs, interval.getValueAtPercentile(95) / 1000.0,
                    (now[1] - prev[1]) / secs, (now[3] - prev[3]) / secs);
            if (run.spec.openLoop()) {
                line += String.format(Locale.ROOT, " lat-intended (ms,95%%): %.2f",
                        coInterval.getValueAtPercentile(95) / 1000.0);
            }
            console.println(line);
            prev = now;
            prevNanos = nowNanos;
        }
    }

    /** {@code 10 s}, {@code 1.5 s}. */
    private static String seconds(java.time.Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s",
                d.toMillis() / 1000.0);
    }

    private static boolean joinAll(List<Thread> threads, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return allDone(threads);
            }
            try {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return allDone(threads);
            }
        }
        return allDone(threads);
    }

    private static boolean allDone(List<Thread> threads) {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** The step's figures over the measured span of {@code phases}; rates are 0 when the span is empty. */
    static StepResult result(StepSpec spec, List<Worker> workers, StepResult.Phases phases) {
        Histogram all = LatencyHistograms.create();
        Histogram corrected = LatencyHistograms.create();
        long ok = 0;
        long err = 0;
        long queries = 0;
        long samples = 0;
        long failedSumMicros = 0;
        long failedMaxMicros = 0;
        long[] errorsByCode = new long[SampleStatus.MAX_CODE + 1];
        long reconnects = 0;
        for (Worker w : workers) {
            reconnects += w.reconnects;
            all.add(w.measured);
            corrected.add(w.measuredCorrected);
            ok += w.measuredOk;
            err += w.measuredErrors;
            queries += w.measuredQueries;
            samples += w.samples;
            failedSumMicros += w.failedLatencySumMicros;
            failedMaxMicros = Math.max(failedMaxMicros, w.failedLatencyMaxMicros);
            for (int code = 0; code < errorsByCode.length; code++) {
                errorsByCode[code] += w.measuredErrorsByCode[code];
            }
        }
        Map<String, Long> byClass = new TreeMap<>();
        for (int code = 0; code < errorsByCode.length; code++) {
            if (errorsByCode[code] > 0) {
                byClass.put(SampleStatus.ofCode(code).label(), errorsByCode[code]);
            }
        }
        StepResult.Failures failures = err == 0 ? StepResult.Failures.NONE
                : new StepResult.Failures(byClass, failedSumMicros / 1000.0 / err, failedMaxMicros / 1000.0);
        // the exact span the events carry, so rates recomputed from the raw samples agree to the last digit
        double secs = phases.measuredMicros() / 1e6;
        double tps = secs > 0 ? ok / secs : 0;
        double qps = secs > 0 ? queries / secs : 0;
        boolean any = all.getTotalCount() > 0;
        return new StepResult(spec.stepId(), spec.targetName(), spec.workload().name(), spec.threads(), spec.round(),
                tps, qps, any ? all.getMean() / 1000.0 : 0,
                any ? all.getValueAtPercentile(95) / 1000.0 : 0, any ? all.getValueAtPercentile(99) / 1000.0 : 0,
                any ? all.getMaxValue() / 1000.0 : 0, ok, err, queries, secs, samples, 0, 0, 0, spec.openLoop(),
                any ? corrected.getMean() / 1000.0 : 0, any ? corrected.getValueAtPercentile(95) / 1000.0 : 0,
                any ? corrected.getValueAtPercentile(99) / 1000.0 : 0, any ? corrected.getMaxValue() / 1000.0 : 0,
                false, -1, failures, reconnects, phases, -1, -1, StepResult.COMPLETED);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
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
