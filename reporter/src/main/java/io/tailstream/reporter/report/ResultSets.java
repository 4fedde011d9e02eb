package io.tailstream.reporter.report;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Reading nullable columns of the report's queries by name. Stateless. */
final class ResultSets {

    private ResultSets() {}

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
