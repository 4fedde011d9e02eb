package io.tailstream.analysis.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The server's side of a step as lines under its QPS and P99, the report's and the live page's: sessions at work and
 * waiting on a lock, and how close the buffer pool and the redo log (WAL) are to their limits. A line the product
 * does not report is left out. Stateless.
 */
public final class ServerLines {

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

    /** The gauges the lines are made of, by name. */
    public static final List<String> NAMES = List.of("Threads_running", "Innodb_row_lock_current_waits",
            "sessions.active", "sessions.executing", "sessions.blocked", "Innodb_buffer_pool_pages_dirty",
            "Innodb_buffer_pool_pages_total", "Innodb_checkpoint_age", "Innodb_checkpoint_max_age", "checkpoint_age",
            "max_wal_size");
    /** ... and by the start of their name (sessions in a waiting state, per state). */
    public static final List<String> PREFIXES = List.of("state.Waiting", "wait.Lock:");

    private static final List<String> RUNNING_NAMES = List.of("Threads_running", "sessions.active",
            "sessions.executing");

    /**
     * One line on the times of the readings.
     *
     * @param values NaN for a failed reading (a gap)
     */
    public record Line(String label, long[] atMs, double[] values) {}

    /**
     * A step's lines.
     *
     * @param sessions {@link #RUNNING} and {@link #WAITING} where the product reports them
     * @param pressure {@link #DIRTY_PCT} and {@link #CHECKPOINT_PCT} where the product reports them
     */
    public record Lines(List<Line> sessions, List<Line> pressure) {

        public boolean isEmpty() {
            return sessions.isEmpty() && pressure.isEmpty();
        }
    }

    private ServerLines() {}

    /** Whether the lines read the gauge {@code name}. */
    public static boolean read(String name) {
        return NAMES.contains(name) || PREFIXES.stream().anyMatch(name::startsWith);
    }

    /** The lines of one producer's readings of one target ({@link CounterReadings#series()}). */
    public static Lines of(List<CounterSeries> series) {
        Map<String, CounterSeries> byName = series.stream()
                .collect(Collectors.toMap(CounterSeries::name, Function.identity(), (a, b) -> a));
        List<Line> sessions = new ArrayList<>();
        CounterSeries running = RUNNING_NAMES.stream().map(byName::get).filter(s -> s != null).findFirst()
                .orElse(null);
        if (running != null) {
            sessions.add(new Line(RUNNING, running.atMs(), running.values()));
            double[] waiting = new double[running.values().length];
            for (int k = 0; k < waiting.length; k++) {
                waiting[k] = Double.isNaN(running.values()[k]) ? Double.NaN : 0;
            }
            for (CounterSeries s : series) {
                if (PREFIXES.stream().anyMatch(s.name()::startsWith)
                        || s.name().equals("Innodb_row_lock_current_waits") || s.name().equals("sessions.blocked")) {
                    for (int k = 0; k < waiting.length; k++) {
                        if (!Double.isNaN(s.values()[k])) {
                            waiting[k] += s.values()[k];
                        }
                    }
                }
            }
            sessions.add(new Line(WAITING, running.atMs(), waiting));
        }
        List<Line> pressure = new ArrayList<>();
        CounterSeries dirty = byName.get(StallExplanation.DIRTY_PAGES_PCT);
        if (dirty != null) {
            pressure.add(new Line(DIRTY_PCT, dirty.atMs(), dirty.values()));
        }
        CounterSeries age = byName.get(StallExplanation.CHECKPOINT_AGE_PCT);
        if (age != null) {
            pressure.add(new Line(CHECKPOINT_PCT, age.atMs(), age.values()));
        }
        return new Lines(sessions, pressure);
    }
}
