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
 * the throughput when the client shares cores with the server (docs/producer-benchmarks.md). Server-side prepared
 * statements are switched on for both, as sysbench uses them by default ({@code --db-ps-mode=auto}), so the tools
 * send the same protocol messages (facts.md); {@code useServerPrepStmts} and {@code cachePrepStmts} mean the same
 * to both drivers.
 */
public final class MySqlDialect implements Dialect {

    static final MySqlDialect INSTANCE = new MySqlDialect();

    /** Variables that explain most differences between MySQL-compatible targets. */
    public static final List<String> DEFAULT_VARIABLES = List.of(
            "innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin",
            "binlog_format", "innodb_io_capacity", "innodb_flush_method", "max_connections",
            "transaction_isolation", "tx_isolation");

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
            try {
                ps.close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
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
    public boolean explicitBeginStatement() {
        return true;
    }

    @Override
    public List<String> defaultVariables() {
        return DEFAULT_VARIABLES;
    }

    @Override
    public Map<String, String> readVariables(Connection c, List<String> names) throws SQLException {
        return Dialect.queryVariables(c, "SHOW GLOBAL VARIABLES WHERE Variable_name IN ", "", names,
                rs -> rs.getString(2));
    }
}
