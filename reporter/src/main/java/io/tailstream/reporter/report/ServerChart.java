package io.tailstream.reporter.report;

import java.util.List;

/**
 * The server's side of one step, for the charts under its QPS and P99: sessions at work and waiting on a lock, and
 * how close the buffer pool and the redo log (WAL) are to their limits. Each line is down-sampled like the step's
 * own series; a null value is a failed reading (a gap).
 *
 * @param sessions {@link #RUNNING} and {@link #WAITING} where the product reports them
 * @param pressure {@link #DIRTY_PCT} and {@link #CHECKPOINT_PCT} where the product reports them
 */
public record ServerChart(List<Line> sessions, List<Line> pressure) {

    /** Sessions running a statement: MySQL's {@code Threads_running}, PostgreSQL's active, H2's executing. */
    public static final String RUNNING = "running";
    /**
     * Sessions waiting on a lock: MySQL/MariaDB sessions in a {@code Waiting for ...} state plus InnoDB row-lock
     * waits, PostgreSQL sessions waiting on a {@code Lock} event, H2 sessions blocked by another.
     */
    public static final String WAITING = "waiting on a lock";
    /** Dirty pages in % of the buffer pool. */
    public static final String DIRTY_PCT = "dirty pages %";
    /** Checkpoint age in % of its maximum. */
    public static final String CHECKPOINT_PCT = "checkpoint age %";

    public ServerChart {
        sessions = List.copyOf(sessions);
        pressure = List.copyOf(pressure);
    }

    /** One line: reading times (epoch seconds) and values, NaN for a failed reading. */
    public record Line(String label, double[] epochSeconds, double[] values) {}

    boolean isEmpty() {
        return sessions.isEmpty() && pressure.isEmpty();
    }
}
