package io.tailstream.producer.target;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL (and PostgreSQL-compatible products) through the pgJDBC driver, as sysbench's {@code pgsql} driver
 * talks to it: {@code SERIAL} ids, no table options, BEGIN/COMMIT statements on an auto-commit connection, and
 * {@code oltp_insert} leaving the id to the sequence. pgJDBC prepares a statement on the server from its fifth
 * execution ({@code prepareThreshold=5}); a benchmark's statements run thousands of times, so steady state is
 * server-side prepared as with sysbench. Stateless and thread safe.
 */
public final class PostgreSqlDialect implements Dialect {

    static final PostgreSqlDialect INSTANCE = new PostgreSqlDialect();

    /** Settings that explain most differences between PostgreSQL targets. */
    public static final List<String> DEFAULT_VARIABLES = List.of(
            "shared_buffers", "synchronous_commit", "fsync", "full_page_writes", "wal_level", "max_wal_size",
            "checkpoint_timeout", "max_connections", "default_transaction_isolation", "effective_cache_size",
            "work_mem");

    private PostgreSqlDialect() {}

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String autoIncrementInteger() {
        // sysbench's pgsql branch of create_table: id SERIAL
        return "SERIAL";
    }

    @Override
    public String binaryColumn(int maxBytes) {
        return "BYTEA";
    }

    @Override
    public boolean explicitBeginStatement() {
        return true;
    }

    @Override
    public List<String> defaultVariables() {
        return DEFAULT_VARIABLES;
    }

    @Override
    public Map<String, String> readVariables(Connection c, List<String> names) throws SQLException {
        // shared_buffers is reported in 8kB pages: keep the unit so the value is not misread
        return Dialect.queryVariables(c, "SELECT name, setting, unit FROM pg_settings WHERE name IN ", " ORDER BY name",
                names, rs -> rs.getString(3) == null ? rs.getString(2) : rs.getString(2) + " " + rs.getString(3));
    }
}
