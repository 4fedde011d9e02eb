package io.tailstream.producer.target;

import io.tailstream.schemas.block.SampleStatus;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * Classifies SQL errors into sample statuses by vendor code and SQLState, for MySQL/MariaDB, H2 and PostgreSQL.
 * Stateless and thread safe.
 */
public final class SqlErrors {

    private SqlErrors() {}

    /** The status of a failed transaction. Never {@link SampleStatus#OK}. */
    public static SampleStatus classify(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        switch (code) {
            case 1213: // ER_LOCK_DEADLOCK
            case 1020: // ER_CHECKREAD: record changed since last read (sysbench ignores it with 1213 and 1205)
                return SampleStatus.DEADLOCK;
            case 1205: // ER_LOCK_WAIT_TIMEOUT
                return SampleStatus.LOCK_WAIT_TIMEOUT;
            case 1062: // ER_DUP_ENTRY
            case 1586: // ER_DUP_ENTRY_WITH_KEY_NAME
                return SampleStatus.DUPLICATE_KEY;
            case 2006: // CR_SERVER_GONE_ERROR
            case 2011: // CR_TCP_CONNECTION
            case 2013: // CR_SERVER_LOST
            case 2055: // CR_SERVER_LOST_EXTENDED
            case 1927: // MariaDB ER_CONNECTION_KILLED: KILL CONNECTION hit a running statement (SQLState 70100)
            case 4031: // MySQL ER_CLIENT_INTERACTION_TIMEOUT: the server closed an idle connection
                return SampleStatus.CONNECTION_LOST;
            default:
                break;
        }
        if (state.equals("40001") || state.equals("40P01") || state.equals("90131")) {
            // serialization failure / deadlock; H2's 90131 is "concurrent update", the same kind of conflict
            return SampleStatus.DEADLOCK;
        }
        if (state.equals("HYT00") || state.equals("55P03") || code == 50200) {
            return SampleStatus.LOCK_WAIT_TIMEOUT;
        }
        if (state.equals("23505")) {
            return SampleStatus.DUPLICATE_KEY;
        }
        if (state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
            // PostgreSQL admin_shutdown (pg_terminate_backend, a shutdown), crash_shutdown, cannot_connect_now
            return SampleStatus.CONNECTION_LOST;
        }
        if (state.startsWith("08") || e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException) {
            return SampleStatus.CONNECTION_LOST;
        }
        return SampleStatus.OTHER_ERROR;
    }

    /**
     * One line for messages: {@link #describe} for an {@link SQLException}, the message otherwise, followed by the
     * innermost cause's message when it says more ({@code SQLState 08S01, vendor code 0: Communications link failure
     * (caused by ConnectException: Connection refused)}).
     */
    public static String describeWithRootCause(Throwable t) {
        String line = t instanceof SQLException se ? describe(se) : firstLine(String.valueOf(t.getMessage()));
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != t && root.getMessage() != null) {
            String rootLine = firstLine(root.getMessage());
            if (!line.contains(rootLine)) {
                line += " (caused by " + root.getClass().getSimpleName() + ": " + rootLine + ")";
            }
        }
        return line;
    }

    /**
     * Whether {@code t} or one of its causes is a timeout ({@link java.net.SocketTimeoutException},
     * {@link java.sql.SQLTimeoutException}): the server did not answer in time, rather than refused.
     */
    public static boolean timedOut(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof java.net.SocketTimeoutException || c instanceof java.sql.SQLTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String firstLine(String msg) {
        String s = msg.strip();
        int nl = s.indexOf('\n');
        return nl > 0 ? s.substring(0, nl) : s;
    }

    /** One line for messages: {@code SQLState 40001, vendor code 1213: Deadlock found ...}. */
    public static String describe(SQLException e) {
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
        int nl = msg.indexOf('\n');
        if (nl > 0) {
            msg = msg.substring(0, nl);
        }
        return "SQLState " + e.getSQLState() + ", vendor code " + e.getErrorCode() + ": " + msg;
    }
}
