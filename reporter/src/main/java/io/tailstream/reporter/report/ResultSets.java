package io.tailstream.reporter.report;

import io.tailstream.reporter.query.ArchiveDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** Running the report's per-step queries and reading their nullable columns by name. Stateless. */
final class ResultSets {

    /** Reads the current row of a query. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private ResultSets() {}

    /** A value per step from a query that selects {@code run_id} and {@code step_id}, one row per step. */
    static <T> Map<StepKey, T> byStep(ArchiveDatabase db, String sql, RowReader<T> row) throws SQLException {
        Map<StepKey, T> out = new HashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(StepKey.read(rs), row.read(rs));
            }
        }
        return out;
    }

    /** The column as a long, or null where it is NULL (DuckDB returns sums and casts as any {@link Number}). */
    static Long longOrNull(ResultSet rs, String column) throws SQLException {
        Number n = (Number) rs.getObject(column);
        return n == null ? null : n.longValue();
    }

    /** The column as a double, or null where it is NULL. */
    static Double doubleOrNull(ResultSet rs, String column) throws SQLException {
        Number n = (Number) rs.getObject(column);
        return n == null ? null : n.doubleValue();
    }
}
