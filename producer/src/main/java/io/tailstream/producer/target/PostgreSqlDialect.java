package io.tailstream.producer.target;

import io.tailstream.schemas.block.SampleStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.postgresql.PGStatement;

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

    /**
     * What sysbench 1.0.20's pgsql driver ignores, with no option to change it (src/drivers/pgsql/drv_pgsql.c,
     * {@code pgsql_check_status}): SQLStates 40P01 deadlock_detected and 40001 serialization_failure (class
     * {@code deadlock}) and 23505 unique_violation (class {@code duplicate_key}); it sends ROLLBACK and the event is
     * run again. Under contention on few rows PostgreSQL raises 23505 from {@code oltp_read_write}'s DELETE+INSERT
     * pair: a transaction whose DELETE waited for another's finds the row deleted and re-inserted by it, deletes
     * nothing, and its INSERT collides.
     */
    static final Set<SampleStatus> SYSBENCH_IGNORED = Set.of(SampleStatus.DEADLOCK, SampleStatus.DUPLICATE_KEY);

    private PostgreSqlDialect() {}

    @Override
    public Set<SampleStatus> defaultIgnoredErrors() {
        return SYSBENCH_IGNORED;
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String autoIncrementInteger() {
        // sysbench's pgsql branch of create_table: id SERIAL
        return "SERIAL";
    }

    /**
     * pgJDBC sends a statement's first {@code prepareThreshold - 1} executions (4 by default) as an unnamed statement
     * that the server parses and plans each time; a threshold of 1 makes the first execution already use a named
     * server-side statement.
     */
    @Override
    public PreparedStatement prepareOnServer(Connection c, String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            ps.unwrap(PGStatement.class).setPrepareThreshold(1);
        } catch (SQLException e) {
            SqlResources.closeAll(e, ps);
            throw e;
        }
        return ps;
    }

    @Override
    public boolean serverPrepared(PreparedStatement ps) throws SQLException {
        return ps.isWrapperFor(PGStatement.class) && ps.unwrap(PGStatement.class).isUseServerPrepare();
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
