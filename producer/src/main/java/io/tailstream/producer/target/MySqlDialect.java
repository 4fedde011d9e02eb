package io.tailstream.producer.target;

import io.tailstream.schemas.block.SampleStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MySQL and MariaDB: {@code jdbc:mysql:} URLs through MySQL Connector/J, {@code jdbc:mariadb:} URLs through MariaDB
 * Connector/J (which talks to MySQL servers too). Same SQL, same server error codes; the drivers differ in client
 * CPU per statement — MariaDB Connector/J costs about half of Connector/J's against a MariaDB server, which decides
 * the throughput when the client shares cores with the server (docs/benchmarks.md). Server-side prepared
 * statements are switched on for both, as sysbench uses them by default ({@code --db-ps-mode=auto}, sysbench
 * 1.0.20 {@code src/db_driver.c}), so the tools send the same protocol messages; {@code useServerPrepStmts} and
 * {@code cachePrepStmts} mean the same to both drivers.
 */
final class MySqlDialect implements Dialect {

    static final MySqlDialect INSTANCE = new MySqlDialect();

    /**
     * The fairness profile's variables: commit durability ({@code innodb_flush_log_at_trx_commit}, {@code
     * sync_binlog}, {@code log_bin}, {@code innodb_flush_method}), torn-page protection ({@code
     * innodb_doublewrite}), isolation ({@code transaction_isolation}; {@code tx_isolation} before MySQL 8 and
     * MariaDB 11.1), buffer pool and semi-synchronous replication (MariaDB and MySQL before 8.0.26 {@code master},
     * later MySQL {@code source}).
     */
    public static final List<String> PROFILE_VARIABLES = List.of(
            "innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin", "innodb_doublewrite", "transaction_isolation",
            "tx_isolation", "innodb_buffer_pool_size", "rpl_semi_sync_master_enabled", "rpl_semi_sync_source_enabled",
            "rpl_semi_sync_master_wait_point", "innodb_flush_method");

    /** The profile's variables and others that explain differences between MySQL-compatible targets. */
    public static final List<String> DEFAULT_VARIABLES = java.util.stream.Stream.concat(PROFILE_VARIABLES.stream(),
            java.util.stream.Stream.of("binlog_format", "innodb_io_capacity", "max_connections")).toList();

    /**
     * sysbench 1.0.20's {@code --mysql-ignore-errors} default, {@code 1213,1020,1205} (src/drivers/mysql/drv_mysql.c):
     * deadlocks and "record changed since last read" (class {@code deadlock}) and lock wait timeouts.
     */
    static final Set<SampleStatus> SYSBENCH_IGNORED = Set.of(SampleStatus.DEADLOCK, SampleStatus.LOCK_WAIT_TIMEOUT);

    private MySqlDialect() {}

    @Override
    public String name() {
        return "mysql";
    }

    @Override
    public String effectiveUrl(String jdbcUrl) {
        String url = jdbcUrl;
        url = addParameter(url, "useServerPrepStmts", "true");
        url = addParameter(url, "cachePrepStmts", "true");
        return url;
    }

    static String addParameter(String url, String key, String value) {
        String lower = url.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("?" + key.toLowerCase(java.util.Locale.ROOT) + "=")
                || lower.contains("&" + key.toLowerCase(java.util.Locale.ROOT) + "=")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + key + "=" + value;
    }

    /**
     * MySQL Connector/J prepares on the server in {@code prepareStatement}; MariaDB Connector/J sends the prepare
     * with the first execution, unless asked for the parameter metadata, which it fetches by preparing.
     */
    @Override
    public PreparedStatement prepare(Connection c, String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            if (ps.isWrapperFor(org.mariadb.jdbc.ServerPreparedStatement.class)) {
                ps.getParameterMetaData();
            }
        } catch (SQLException e) {
            SqlResources.closeAll(e, ps);
            throw e;
        }
        return ps;
    }

    @Override
    public Set<SampleStatus> defaultIgnoredErrors() {
        return SYSBENCH_IGNORED;
    }

    /**
     * MySQL Connector/J and MariaDB Connector/J hand out their server-side statement class exactly when the URL's
     * {@code useServerPrepStmts} is on (added by {@link #effectiveUrl} unless the URL says otherwise).
     */
    @Override
    public boolean serverPrepared(PreparedStatement ps) throws SQLException {
        return ps.isWrapperFor(com.mysql.cj.jdbc.ServerPreparedStatement.class)
                || ps.isWrapperFor(org.mariadb.jdbc.ServerPreparedStatement.class);
    }

    @Override
    public String autoIncrementInteger() {
        return "INTEGER NOT NULL AUTO_INCREMENT";
    }

    /** LONGBLOB: stored off-page by InnoDB, no 65,535-byte row limit, any value size. */
    @Override
    public String binaryColumn(int maxBytes) {
        return "LONGBLOB";
    }

    @Override
    public boolean autoIncrementFromZero() {
        return true;
    }

    @Override
    public String tableOptions(String mysqlStorageEngine) {
        return "/*! ENGINE = " + mysqlStorageEngine + " */";
    }

    @Override
    public List<String> defaultVariables() {
        return DEFAULT_VARIABLES;
    }

    @Override
    public List<String> profileVariables() {
        return PROFILE_VARIABLES;
    }

    /** The session's {@code transaction_isolation} ({@code tx_isolation} where the server has no such variable). */
    @Override
    public String isolation(Connection c) throws SQLException {
        for (String variable : List.of("@@SESSION.transaction_isolation", "@@SESSION.tx_isolation")) {
            try {
                return Dialect.queryIsolation(c, "SELECT " + variable);
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_UNKNOWN_SYSTEM_VARIABLE) {
                    throw e;
                }
            }
        }
        return null;
    }

    private static final int ER_UNKNOWN_SYSTEM_VARIABLE = 1193;

    /**
     * {@code SUM(data_length + index_length)} of the tables in {@code information_schema.TABLES}: InnoDB's
     * statistics, approximate, and cached for {@code information_schema_stats_expiry} seconds on MySQL 8.
     */
    @Override
    public Long dataBytes(Connection c, List<String> tables) throws SQLException {
        return Dialect.sumOverTables(c, "SELECT SUM(data_length + index_length), COUNT(*)"
                + " FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name IN ", tables);
    }

    @Override
    public Map<String, String> readVariables(Connection c, List<String> names) throws SQLException {
        return Dialect.queryVariables(c, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ", "", names,
                rs -> rs.getString(2));
    }
}
