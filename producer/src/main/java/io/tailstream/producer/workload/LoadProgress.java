package io.tailstream.producer.workload;

/**
 * Receives the rows a {@link Workload#prepare} has inserted, as it inserts them (a progress bar counts them). Called
 * by every loader thread after each INSERT statement, so implementations must be thread safe and cheap (a
 * {@link java.util.concurrent.atomic.LongAdder}).
 */
@FunctionalInterface
public interface LoadProgress {

    /** Counts nothing. */
    LoadProgress NONE = rows -> { };

    /** {@code rows} more rows were inserted (committed or auto-committed). */
    void rowsLoaded(long rows);
}
