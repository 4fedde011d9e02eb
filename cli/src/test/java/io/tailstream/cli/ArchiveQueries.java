package io.tailstream.cli;

import io.tailstream.reporter.query.ArchiveDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Single figures read from an archive, for the tests that check what a command archived. */
final class ArchiveQueries {

    private ArchiveQueries() {}

    /** The first column of the first row of {@code sql}, as a long (0 for NULL). */
    static long longValue(ArchiveDatabase db, String sql) throws SQLException {
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
