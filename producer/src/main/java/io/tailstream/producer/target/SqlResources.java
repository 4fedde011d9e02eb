package io.tailstream.producer.target;

import java.sql.SQLException;
import java.util.Arrays;

/** Closing several JDBC resources where one failing to close must not leave the others open. */
public final class SqlResources {

    private SqlResources() {}

    /**
     * Closes every non-null resource, in order, even when some fail.
     *
     * @param first a failure that already happened (it stays the one returned), or null
     * @return {@code first}, else the first close failure, with every later failure suppressed in it; null if none
     */
    public static SQLException closeAll(SQLException first, Iterable<? extends AutoCloseable> resources) {
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                SQLException se = e instanceof SQLException s ? s : new SQLException("cannot close " + r, e);
                if (first == null) {
                    first = se;
                } else {
                    first.addSuppressed(se);
                }
            }
        }
        return first;
    }

    /** {@link #closeAll(SQLException, Iterable)} over an array (null elements skipped). */
    public static SQLException closeAll(SQLException first, AutoCloseable... resources) {
        return closeAll(first, Arrays.asList(resources));
    }

    /** Closes every non-null resource and throws the first failure, later ones suppressed in it. */
    public static void closeAllOrThrow(Iterable<? extends AutoCloseable> resources) throws SQLException {
        SQLException failure = closeAll(null, resources);
        if (failure != null) {
            throw failure;
        }
    }
}
