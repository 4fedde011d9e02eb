package io.tailstream.reporter.archive;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archive writer's one in-memory DuckDB connection, opened at first use, through which it reads its own files
 * back: footers ({@link TopicIncarnation}), control events ({@link ControlHistory}) and the sources of the derived
 * datasets ({@link DerivedDatasets}).
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class ArchiveDuckDb implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveDuckDb.class);

    private Connection connection;

    /** The connection, opened now if it is not yet. */
    Connection get() throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection("jdbc:duckdb:");
        }
        return connection;
    }

    /** Closes the connection if it was opened; a failure is only logged: the files read and written are complete. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.warn("closing the archive writer's DuckDB connection failed: {}", e.getMessage());
            }
            connection = null;
        }
    }
}
