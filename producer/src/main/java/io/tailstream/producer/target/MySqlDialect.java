package io.tailstream.producer.target;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * MySQL and MariaDB through mysql-connector-j. Server-side prepared statements are switched on, as sysbench uses
 * them by default ({@code --db-ps-mode=auto}), so both tools send the same protocol messages (facts.md).
 */
public final class MySqlDialect implements Dialect {

    static final MySqlDialect INSTANCE = new MySqlDialect();

    /** Variables that explain most differences between MySQL-compatible targets. */
    public static final List<String> DEFAULT_VARIABLES = List.of(
            "innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin",
            "binlog_format", "innodb_io_capacity", "innodb_flush_method", "max_connections",
            "transaction_isolation", "tx_isolation");

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
