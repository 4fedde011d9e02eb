package io.tailstream.producer.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.IntFunction;

/**
 * Loads a range of rows with multi-row INSERT statements, as sysbench's and YCSB's loaders do: one statement of
 * {@code fullRows} rows prepared once and executed again and again, and a statement of its own for a shorter last
 * batch. Each statement is counted in the {@link LoadProgress} once executed. Stateless.
 */
public final class MultiRowInsert {

    /** Binds one row's values. */
    @FunctionalInterface
    public interface RowBinder {
        /**
         * Binds row {@code row} from parameter {@code first} on.
         *
         * @return the parameter after the row's last
         */
        int bind(PreparedStatement ps, int first, long row) throws SQLException;
    }

    private MultiRowInsert() {}

    /**
     * Inserts rows {@code [from, to)}, binding them in order.
     *
     * @param insertSql the INSERT of a given number of rows
     */
    public static void insert(Connection c, long from, long to, int fullRows, IntFunction<String> insertSql,
                              RowBinder binder, LoadProgress loaded) throws SQLException {
        try (PreparedStatement full = c.prepareStatement(insertSql.apply(fullRows))) {
            long row = from;
            while (row < to) {
                int rows = (int) Math.min(fullRows, to - row);
                PreparedStatement ps = rows == fullRows ? full : c.prepareStatement(insertSql.apply(rows));
                try {
                    int p = 1;
                    for (int r = 0; r < rows; r++, row++) {
                        p = binder.bind(ps, p, row);
                    }
                    ps.executeUpdate();
                    loaded.rowsLoaded(rows);
                } finally {
                    if (ps != full) {
                        ps.close();
                    }
                }
            }
        }
    }
}
