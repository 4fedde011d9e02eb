package io.tailstream.reporter.report;

import io.tailstream.analysis.counters.ServerLines;
import java.util.List;

/**
 * The server's side of one step, for the charts under its QPS and P99: sessions at work and waiting on a lock, and
 * how close the buffer pool and the redo log (WAL) are to their limits. Each line is down-sampled like the step's
 * own series; a null value is a failed reading (a gap).
 *
 * @param sessions sessions running and waiting on a lock, where the product reports them ({@link ServerLines})
 * @param pressure dirty pages and checkpoint age in % of their maximum, where the product reports them
 */
public record ServerChart(List<Line> sessions, List<Line> pressure) {

    /** The labels of {@link ServerLines}. */
    public static final String RUNNING = ServerLines.RUNNING;
    public static final String WAITING = ServerLines.WAITING;
    public static final String DIRTY_PCT = ServerLines.DIRTY_PCT;
    public static final String CHECKPOINT_PCT = ServerLines.CHECKPOINT_PCT;

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
