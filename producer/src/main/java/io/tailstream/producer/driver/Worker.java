package io.tailstream.producer.driver;

import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.target.SqlResources;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.time.EpochAnchor;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkerSlot;
import io.tailstream.producer.workload.WorkloadSession;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One worker thread: borrows a connection, opens a workload session and runs transactions until the step's end,
 * back to back (closed loop) or at the intended starts of an {@link OpenLoopPacer} (open loop), and stops early when
 * the step's transaction budget is used up or the step is stopped. In closed loop it waits before a transaction
 * as long as the session asks ({@link WorkloadSession#pauseNanos()}: TPC-C's keying and think times). When lost
 * connections are ignored and its connection dies, it drops connection and session and reconnects, emitting nothing
 * meanwhile. Its interval counters are written by this thread only and read by the reporter
 * ({@code setOpaque}/{@code getOpaque}: single writer, no lock); its measurement totals are read after
 * {@link Thread#join()}.
 */
final class Worker implements Runnable {

    private final StepRun run;
    private final int index;
    private final SampleWriter writer;
    private final Clock clock;
    private final EpochAnchor anchor;

    /**
     * Interval view for the console: successful transactions, warm-up included. 2 digits is plenty for an interval
     * line.
     */
    final Recorder recorder = new Recorder(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
    /** The reporter's recycled interval histogram for {@link #recorder}; touched by the reporter thread only. */
    Histogram intervalRecycle;
    /** Open loop only: interval view of the latency from the intended start; null in closed loop. */
    final Recorder coRecorder;
    /** The reporter's recycled interval histogram for {@link #coRecorder}. */
    Histogram coIntervalRecycle;
    /** Running totals for the console's interval lines, read as consistent snapshots. */
    final IntervalCounters counters = new IntervalCounters();

    // measurement phase only; read after join
    /** Latency of the successful transactions. */
    final Histogram measured = LatencyHistograms.create();
    /** Latency from the intended start of the successful transactions (as {@link #measured} in closed loop). */
    final Histogram measuredCorrected = LatencyHistograms.create();
    long measuredOk;
    long measuredErrors;
    /** Successful statements: all of a successful transaction's, a failed one's before the one that failed. */
    long measuredQueries;
    /** Failed transactions by {@link SampleStatus#code()}. */
    final long[] measuredErrorsByCode = new long[SampleStatus.MAX_CODE + 1];
    long failedLatencySumMicros;
    long failedLatencyMaxMicros;
    long samples;
    long lastEndNanos;
    /** Connections re-established after a loss, warm-up included; read after join. */
    long reconnects;

    /** When this worker last lost its connection (or failed to get its first one). Worker thread only. */
    private long lostAtNanos;
    /** This worker's connection and session, both null while it has none. Worker thread only. */
    private Connection connection;
    private WorkloadSession session;
    /** Guards {@link #waiting} against the interrupt of {@link #wake}. */
    private final Object wakeLock = new Object();
    private boolean waiting;

    /** First wait between reconnect attempts; it doubles up to {@link #RECONNECT_MAX_BACKOFF_NANOS}. */
    static final long RECONNECT_MIN_BACKOFF_NANOS = 10_000_000L;
    static final long RECONNECT_MAX_BACKOFF_NANOS = 1_000_000_000L;
    /** A session's pause is waited in slices of this, so a stop ends it promptly. */
    static final long PAUSE_SLICE_NANOS = 50_000_000L;

    Worker(StepRun run, int index, SampleWriter writer, Clock clock, EpochAnchor anchor) {
        this.run = run;
        this.index = index;
        this.writer = writer;
        this.clock = clock;
        this.anchor = anchor;
        this.coRecorder = run.spec.openLoop() ? new Recorder(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2) : null;
    }

    @Override
    public void run() {
        Set<SampleStatus> ignored = run.spec.ignoredErrors();
        boolean reconnect = ignored.contains(SampleStatus.CONNECTION_LOST);
        TransactionOutcome outcome = new TransactionOutcome();
        try {
            try {
                connect();
            } catch (SQLException e) {
                if (!reconnect || run.dialect.classify(e) != SampleStatus.CONNECTION_LOST) {
                    run.fail("worker " + index + " cannot open its connection or session: " + SqlErrors.describe(e),
                            e);
                    return;
                }
                // the target is away at the step's start: this worker begins without a connection and reconnects
                run.connectionLost(e);
                lostAtNanos = clock.nanoTime();
                run.faults.attemptFailed(index, 0, 0, e);
            }
            run.ready.countDown();
            run.start.await();
            StepSpec spec = run.spec;
            OpenLoopPacer pacer = null;
            if (spec.openLoop()) {
                long interval = spec.workerIntervalNanos();
                // staggered so the threads' intended starts interleave evenly at the total rate
                pacer = new OpenLoopPacer(clock, run.startNanos + interval * index / spec.threads(), interval);
            }
            while (!run.stop) {
                if (session == null && !reconnect()) {
                    break;
                }
                long pause = pacer == null ? session.pauseNanos() : 0;
                if (pause > 0) {
                    pause(pause);
                    continue;
                }
                long intended;
                if (pacer != null) {
                    if (pacer.peek() - run.endNanos >= 0) {
                        break;
                    }
                    intended = pacer.awaitNext(() -> run.stop);
                    if (intended == Long.MIN_VALUE) {
                        break;
                    }
                } else {
                    intended = clock.nanoTime();
                    if (intended - run.endNanos >= 0) {
                        break;
                    }
                }
                // open loop: a transaction belongs to the phase it was scheduled in
                boolean warmup = intended - run.measureStartNanos < 0;
                if (!warmup && run.remaining != null && run.remaining.getAndDecrement() <= 0) {
                    break;
                }
                long t0 = pacer != null ? clock.nanoTime() : intended;
                SampleStatus status = SampleStatus.OK;
                SQLException error = null;
                try {
                    session.execute(outcome);
                } catch (SQLException e) {
                    status = run.dialect.classify(e);
                    error = e;
                }
                long t1 = clock.nanoTime();
                record(intended, t0, t1, outcome, status, warmup);
                if (error != null) {
                    if (!ignored.contains(status)) {
                        run.fail(status.label() + " (not ignored): " + SqlErrors.describe(error), error);
                    } else if (status == SampleStatus.CONNECTION_LOST) {
                        disconnect();
                        run.connectionLost(error);
                        lostAtNanos = t1;
                        run.faults.lost(index, error, 0);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.fail("worker " + index + " interrupted", e);
        } catch (RuntimeException e) {
            run.fail("worker " + index + ": " + e, e);
        } finally {
            run.ready.countDown();
            if (session != null) {
                disconnect();
            }
            try {
                writer.flush();
            } catch (RuntimeException e) {
                run.fail("worker " + index + " cannot hand over its last samples: " + e.getMessage(), e);
            }
            run.loadGen.retireCurrentThread();
        }
    }

    /** Waits {@code nanos}, or less when the step ends or stops first. */
    private void pause(long nanos) {
        long until = clock.nanoTime() + nanos;
        long left;
        while (!run.stop && (left = Math.min(until - clock.nanoTime(), run.endNanos - clock.nanoTime())) > 0) {
            clock.park(Math.min(left, PAUSE_SLICE_NANOS));
        }
    }

    /** Takes a connection and opens the workload's session on it; on failure holds neither. */
    private void connect() throws SQLException {
        connect(run.dataSource.getConnection());
    }

    /** Opens the workload's session on {@code c}; on failure closes it and holds neither. */
    private void connect(Connection c) throws SQLException {
        try {
            session = run.spec.workload().open(c, run.dialect,
                    new WorkerSlot(run.spec.firstWorker() + index, run.spec.allWorkers(), run.seedBase + index));
        } catch (SQLException | RuntimeException e) {
            SqlResources.closeAll(e instanceof SQLException se ? se : null, c);
            throw e;
        }
        connection = c;
        run.connected.incrementAndGet();
    }

    /**
     * Drops the session and the connection (the pool discards a broken one); a failure to close either is not
     * reported: both are gone.
     */
    private void disconnect() {
        SqlResources.closeAll(null, session, connection);
        session = null;
        connection = null;
        run.connected.decrementAndGet();
    }

    /**
     * Reconnects after a lost connection, waiting 10 ms between attempts and doubling up to 1 s, until it succeeds,
     * the step ends or stops. Emits nothing meanwhile. Returns true with a new connection and session.
     */
    private boolean reconnect() {
        long backoffNanos = RECONNECT_MIN_BACKOFF_NANOS;
        int attempt = 0;
        while (!run.stop && clock.nanoTime() - run.endNanos < 0 && !run.budgetUsed()) {
            attempt++;
            try {
                Connection c;
                // only the wait for a connection may be interrupted: the session is opened with I/O on it
                try {
                    waitable(true);
                    c = run.dataSource.getConnection();
                } finally {
                    waitable(false);
                }
                if (run.stop) {
                    c.close();
                    break;
                }
                connect(c);
            } catch (SQLException e) {
                attemptFailed(attempt, backoffNanos, e);
            } catch (RuntimeException e) {
                attemptFailed(attempt, backoffNanos, new SQLException(e.toString(), e));
            }
            if (session != null) {
                reconnects++;
                counters.reconnected();
                run.faults.reconnected(index, attempt, clock.nanoTime() - lostAtNanos);
                return true;
            }
            try {
                waitable(true);
                if (!run.stop) {
                    clock.park(backoffNanos);
                }
            } finally {
                waitable(false);
            }
            backoffNanos = Math.min(2 * backoffNanos, RECONNECT_MAX_BACKOFF_NANOS);
        }
        return false;
    }

    /** An attempt to reconnect failed; said only while the step goes on (the step's end interrupts attempts). */
    private void attemptFailed(int attempt, long backoffNanos, SQLException e) {
        if (!run.stop && clock.nanoTime() - run.endNanos < 0 && !run.budgetUsed()) {
            run.connectionLost(e);
            run.faults.attemptFailed(index, attempt, backoffNanos, e);
        }
    }

    /**
     * Marks this worker as waiting for a connection or between attempts, where {@link #wake()} may interrupt it.
     * Leaving the state clears any interrupt that arrived, so none reaches a JDBC call on a live connection (an
     * interrupt there can break it, and an embedded database's file).
     */
    private void waitable(boolean on) {
        synchronized (wakeLock) {
            waiting = on;
            if (!on) {
                Thread.interrupted();
            }
        }
    }

    /** Ends a reconnect wait at once (the step ended, stopped or failed); does nothing to a worker that is running. */
    void wake(Thread thread) {
        synchronized (wakeLock) {
            if (waiting) {
                thread.interrupt();
            }
        }
    }

    private void record(long intendedNanos, long t0, long t1, TransactionOutcome outcome, SampleStatus status,
                        boolean warmup) {
        long startMicros = anchor.epochMicros(t0);
        long endMicros = anchor.epochMicros(t1);
        long latencyMicros = endMicros - startMicros;
        long intendedMicros = anchor.epochMicros(intendedNanos);
        int queries = outcome.statements();
        writer.write(startMicros, latencyMicros, intendedMicros, outcome.opIndex(), status, queries, warmup);
        long correctedMicros = endMicros - intendedMicros;
        boolean ok = status == SampleStatus.OK;
        // a workload counts each statement before executing it, so a failed transaction's last one is the failure
        int succeeded = ok ? queries : Math.max(0, queries - 1);
        counters.add(ok, succeeded);
        samples++;
        lastEndNanos = t1;
        if (ok) {
            recorder.recordValue(Math.min(latencyMicros, LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
            if (coRecorder != null) {
                coRecorder.recordValue(Math.min(correctedMicros, LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
            }
        }
        if (!warmup) {
            measuredQueries += succeeded;
            if (ok) {
                LatencyHistograms.record(measured, latencyMicros);
                LatencyHistograms.record(measuredCorrected, correctedMicros);
                measuredOk++;
            } else {
                measuredErrors++;
                measuredErrorsByCode[status.code()]++;
                failedLatencySumMicros += latencyMicros;
                failedLatencyMaxMicros = Math.max(failedLatencyMaxMicros, latencyMicros);
            }
        }
    }
}
