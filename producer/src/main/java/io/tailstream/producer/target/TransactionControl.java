package io.tailstream.producer.target;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

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

    /**
     * {@code BEGIN} / {@code COMMIT} / {@code ROLLBACK} statements on an auto-commit connection, prepared once, as
     * sysbench's {@code oltp_common.lua} prepares them ({@code con:prepare("BEGIN")}): with server-side prepared
     * statements each is one {@code COM_STMT_EXECUTE}, the same protocol message sysbench sends, not a text query the
     * server must parse every time.
     */
    static TransactionControl statements(Connection c, Dialect dialect) throws SQLException {
        PreparedStatement begin = dialect.prepare(c, "BEGIN");
        PreparedStatement commit = null;
        PreparedStatement rollback = null;
        try {
            commit = dialect.prepare(c, "COMMIT");
            rollback = dialect.prepare(c, "ROLLBACK");
        } catch (SQLException e) {
            throw SqlResources.closeAll(e, begin, commit);
        }
        PreparedStatement commitStatement = commit;
        PreparedStatement rollbackStatement = rollback;
        return new TransactionControl() {
            @Override
            public void begin() throws SQLException {
                begin.execute();
            }

            @Override
            public void commit() throws SQLException {
                commitStatement.execute();
            }

            @Override
            public void rollback() throws SQLException {
                rollbackStatement.execute();
            }

            @Override
            public void close() throws SQLException {
                SqlResources.closeAllOrThrow(java.util.List.of(begin, commitStatement, rollbackStatement));
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
