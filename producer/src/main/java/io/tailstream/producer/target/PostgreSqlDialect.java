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
final class PostgreSqlDialect implements Dialect {

    static final PostgreSqlDialect INSTANCE = new PostgreSqlDialect();

    /**
     * The fairness profile's settings: commit durability ({@code fsync}, {@code synchronous_commit}, {@code
     * wal_sync_method}, {@code commit_delay}), torn-page protection ({@code full_page_writes}), replication sync
     * ({@code synchronous_standby_names}), isolation ({@code default_transaction_isolation}) and the buffer pool
     * ({@code shared_buffers}, in bytes).
     */
    public static final List<String> PROFILE_VARIABLES = List.of(
            "fsync", "synchronous_commit", "full_page_writes", "default_transaction_isolation", "shared_buffers",
            "synchronous_standby_names", "wal_sync_method", "commit_delay");

    /** The profile's settings and others that explain differences between PostgreSQL targets. */
    public static final List<String> DEFAULT_VARIABLES = java.util.stream.Stream.concat(PROFILE_VARIABLES.stream(),
            java.util.stream.Stream.of("wal_level", "max_wal_size", "checkpoint_timeout", "max_connections",
                    "effective_cache_size", "work_mem")).toList();

    /** pg_settings' memory units, in bytes. */
    private static final Map<String, Long> MEMORY_UNITS = Map.of("B", 1L, "kB", 1L << 10, "MB", 1L << 20, "GB",
            1L << 30, "TB", 1L << 40);

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
    public List<String> defaultVariables() {
        return DEFAULT_VARIABLES;
    }

    @Override
    public List<String> profileVariables() {
        return PROFILE_VARIABLES;
    }

    /**
     * Settings by name; a memory setting in bytes (pg_settings gives {@code shared_buffers} in 8kB pages, {@code
     * work_mem} in kB), any other with its unit ({@code 300 s}).
     */
    @Override
    public Map<String, String> readVariables(Connection c, List<String> names) throws SQLException {
        return Dialect.queryVariables(c, "SELECT name, setting, unit FROM pg_settings WHERE name IN ", " ORDER BY name",
                names, rs -> withUnit(rs.getString(2), rs.getString(3)));
    }

    /** {@code setting} in bytes when {@code unit} is a memory unit ({@code 8kB}, {@code MB}), else with its unit. */
    static String withUnit(String setting, String unit) {
        if (unit == null || unit.isEmpty()) {
            return setting;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d*)(B|kB|MB|GB|TB)").matcher(unit);
        if (m.matches() && setting.matches("-?\\d+")) {
            long factor = (m.group(1).isEmpty() ? 1 : Long.parseLong(m.group(1))) * MEMORY_UNITS.get(m.group(2));
            long value = Long.parseLong(setting);
            // -1 means "derived from another setting" (e.g. wal_buffers): keep it as the server says it
            return value < 0 ? setting : Long.toString(Math.multiplyExact(value, factor));
        }
        return setting + " " + unit;
    }

    @Override
    public String isolation(Connection c) throws SQLException {
        return Dialect.queryIsolation(c, "SHOW transaction_isolation");
    }

    /** {@code pg_total_relation_size} (table, indexes and TOAST) of the tables in the current schema. */
    @Override
    public Long dataBytes(Connection c, List<String> tables) throws SQLException {
        return Dialect.sumOverTables(c, "SELECT SUM(pg_total_relation_size(c.oid)), COUNT(*) FROM pg_class c JOIN"
                + " pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"
                + " AND c.relname IN ", tables.stream().map(t -> t.toLowerCase(java.util.Locale.ROOT)).toList());
    }
}
