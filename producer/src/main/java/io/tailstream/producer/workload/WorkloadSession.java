package io.tailstream.producer.workload;

import java.sql.SQLException;

/**
 * One worker's view of a workload: prepared statements on one connection and a random-number state. Owned by one
 * thread; not thread safe.
 */
public interface WorkloadSession extends AutoCloseable {

    /**
     * Runs one transaction and fills {@code outcome} with its op and the statements sent. If a statement fails, the
     * transaction has been rolled back (as far as the connection allows) when the exception arrives, and
     * {@code outcome} still tells the op and the statements sent, the failed one included.
     */
    void execute(TransactionOutcome outcome) throws SQLException;

    /**
     * How long the worker waits before this session's next transaction, ns, asked once: a second call returns 0 until
     * the next transaction (TPC-C's keying and think times; 0, the default: at once). The wait is not part of any
     * transaction's latency; a worker in open loop does not wait.
     */
    default long pauseNanos() {
        return 0;
    }

    /** Closes the statements; the connection stays open (it belongs to the pool). */
    @Override
    void close() throws SQLException;
}
