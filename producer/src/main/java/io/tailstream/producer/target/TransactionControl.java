package io.tailstream.producer.target;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Opens, commits and rolls back transactions on one connection, the way its dialect says. Owned by one worker
 * thread; not thread safe.
 */
public interface TransactionControl extends AutoCloseable {

    void begin() throws SQLException;

    void commit() throws SQLException;

    /** Rolls back after a failed statement; must not throw if the connection is already broken beyond repair. */
    void rollback() throws SQLException;

    @Override
    void close() throws SQLException;

    /** {@code BEGIN} / {@code COMMIT} / {@code ROLLBACK} statements on an auto-commit connection. */
    static TransactionControl statements(Connection c) throws SQLException {
        Statement st = c.createStatement();
        return new TransactionControl() {
            @Override
            public void begin() throws SQLException {
                st.execute("BEGIN");
            }

            @Override
            public void commit() throws SQLException {
                st.execute("COMMIT");
            }

            @Override
            public void rollback() throws SQLException {
                st.execute("ROLLBACK");
            }

            @Override
            public void close() throws SQLException {
                st.close();
            }
        };
    }

    /** Manual-commit mode: begin is implicit, commit and rollback are the JDBC calls. */
    static TransactionControl manualCommit(Connection c) throws SQLException {
        c.setAutoCommit(false);
        return new TransactionControl() {
            @Override
            public void begin() {
                // the transaction starts with the first statement in manual-commit mode
            }

            @Override
            public void commit() throws SQLException {
                c.commit();
            }

            @Override
            public void rollback() throws SQLException {
                c.rollback();
            }

            @Override
            public void close() throws SQLException {
                c.setAutoCommit(true);
            }
        };
    }
}
