package io.tailstream.producer.driver;

import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.target.Dialect;
import java.sql.SQLException;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * State shared by the workers of one step, the {@link StepDriver} that runs them, its {@link StepWatcher} and the
 * {@link StopSignal} attached to it. Instants are {@link io.tailstream.producer.time.Clock#nanoTime()} values.
 *
 * <p>Thread safe: the instants, flags and reasons are volatile, the counters atomic, the rest final.
 */
final class StepRun {
    final StepSpec spec;
    final DataSource dataSource;
    final Dialect dialect;
    final LoadGenThreads loadGen;
    final long seedBase = new SplittableRandom().nextLong();
    final CountDownLatch ready;
    final CountDownLatch start = new CountDownLatch(1);
    final AtomicReference<Failure> failure = new AtomicReference<>();
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

    /** Why a step failed: the first failure wins. */
    record Failure(String reason, Throwable cause) {}

    StepRun(StepSpec spec, DataSource dataSource, Dialect dialect, LoadGenThreads loadGen, ConnectionFaults faults) {
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
        failure.compareAndSet(null, new Failure(reason, cause));
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
