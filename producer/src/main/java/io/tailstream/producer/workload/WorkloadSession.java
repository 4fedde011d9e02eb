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

    /** Closes the statements; the connection stays open (it belongs to the pool). */
    @Override
    void close() throws SQLException;
}
