package io.tailstream.producer.driver;

import io.tailstream.producer.target.SqlErrors;
import io.tailstream.schemas.event.Secrets;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.Locale;

/**
 * The console's account of one step's lost connections: one line per target at most every {@link #LINE_NANOS},
 * saying the cause, the target and what happens next, e.g. {@code worker 3: connection lost to
 * jdbc:mariadb://127.0.0.1:3306/sbtest (SQLState 08000, vendor code -1: Socket error); reconnecting (attempt 1,
 * backoff 10 ms)}, or, when several workers hit it at once, {@code 8 workers: ...} with the highest attempt and
 * backoff. Workers that got their connection back are named on the next line ({@code 8 workers reconnected to ...
 * after 1.2 s}). A stack trace follows a line only with {@code TAILSTREAM_DEBUG=1}.
 *
 * <p>Workers report events as they happen (rare: one per lost connection or failed attempt); the step's reporter
 * thread prints the lines. Thread safe (synchronized).
 */
final class ConnectionFaults {

    /** At most one line per this interval. */
    static final long LINE_NANOS = 1_000_000_000L;

    private final String target;
    private final PrintStream console;
    private final boolean debug;

    // events since the last line: the workers that failed (some may be back already), the ones that are back
    private final BitSet failing = new BitSet();
    private final BitSet back = new BitSet();
    private boolean anyLost;
    private int maxAttempt;
    private long maxBackoffNanos;
    private long maxDownNanos;
    private int maxBackAttempts;
    private SQLException lastCause;
    private long lastLineNanos;
    private boolean printed;

    /**
     * @param target  the target as the lines name it: its URL without credentials
     * @param console where the lines go
     * @param debug   print the last cause's stack trace after each line
     */
    ConnectionFaults(String target, PrintStream console, boolean debug) {
        this.target = target;
        this.console = console;
        this.debug = debug;
    }

    /** True if {@code TAILSTREAM_DEBUG=1}: lines are followed by the cause's stack trace. */
    static boolean debugFromEnvironment() {
        return "1".equals(System.getenv("TAILSTREAM_DEBUG"));
    }

    /** A worker's connection failed under a transaction; it reconnects at its {@code attempt} after the backoff. */
    synchronized void lost(int worker, SQLException cause, long backoffNanos) {
        anyLost = true;
        failed(worker, 1, backoffNanos, cause);
    }

    /** A worker's attempt {@code attempt} to get a connection failed; the next comes after {@code backoffNanos}. */
    synchronized void attemptFailed(int worker, int attempt, long backoffNanos, SQLException cause) {
        failed(worker, attempt + 1, backoffNanos, cause);
    }

    private void failed(int worker, int nextAttempt, long backoffNanos, SQLException cause) {
        failing.set(worker);
        maxAttempt = Math.max(maxAttempt, nextAttempt);
        maxBackoffNanos = Math.max(maxBackoffNanos, backoffNanos);
        lastCause = cause;
    }

    /** A worker has a connection again, at attempt {@code attempts}, {@code downNanos} after it lost it. */
    synchronized void reconnected(int worker, int attempts, long downNanos) {
        back.set(worker);
        maxBackAttempts = Math.max(maxBackAttempts, attempts);
        maxDownNanos = Math.max(maxDownNanos, downNanos);
    }

    /**
     * Prints a line for the events since the last one, if any and if the last line is at least {@link #LINE_NANOS}
     * old or {@code force}. Reporter thread.
     */
    synchronized void flush(long nowNanos, boolean force) {
        if (failing.isEmpty() && back.isEmpty()) {
            return;
        }
        if (printed && !force && nowNanos - lastLineNanos < LINE_NANOS) {
            return;
        }
        StringBuilder line = new StringBuilder();
        if (!failing.isEmpty()) {
            line.append(workers(failing)).append(": ").append(anyLost ? "connection lost to " : "cannot connect to ")
                    .append(target).append(" (").append(cause(lastCause)).append("); reconnecting (attempt ")
                    .append(maxAttempt).append(maxBackoffNanos > 0 ? ", backoff " + maxBackoffNanos / 1_000_000 + " ms"
                            : "").append(')');
        }
        if (!back.isEmpty()) {
            if (line.length() > 0) {
                line.append("; ");
            }
            line.append(workers(back)).append(" reconnected to ").append(target).append(String.format(Locale.ROOT,
                    " after %.1f s (%d attempt%s)", maxDownNanos / 1e9, maxBackAttempts, maxBackAttempts == 1 ? ""
                            : "s"));
        }
        console.println(line);
        if (debug && lastCause != null && !failing.isEmpty()) {
            lastCause.printStackTrace(console);
        }
        failing.clear();
        back.clear();
        anyLost = false;
        maxAttempt = 0;
        maxBackoffNanos = 0;
        maxDownNanos = 0;
        maxBackAttempts = 0;
        lastCause = null;
        lastLineNanos = nowNanos;
        printed = true;
    }

    private static String workers(BitSet set) {
        return set.cardinality() == 1 ? "worker " + set.nextSetBit(0) : set.cardinality() + " workers";
    }

    /** The cause in one line, without credentials in any URL it quotes. */
    static String cause(SQLException e) {
        return e == null ? "unknown cause" : Secrets.redactUrl(SqlErrors.describeWithRootCause(e));
    }
}
