package io.tailstream.producer.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * MySQL and MariaDB: the essentials of {@code SHOW GLOBAL STATUS} (threads, the buffer pool's dirty pages, redo log
 * written and the checkpoint age, row-lock waits, fsyncs, commits), the enabled ones of three
 * {@code information_schema.INNODB_METRICS} (checkpoint age and purge lag where the status variables lack them), and
 * the sessions by thread state from {@code information_schema.PROCESSLIST} ({@code state.Waiting for global read
 * lock}, {@code state.Waiting for table metadata lock}; the sampler's own session and idle ones left out).
 * Names the server does not have (MariaDB's {@code Innodb_checkpoint_age}, MySQL 8.0.30's
 * {@code Innodb_redo_log_current_lsn}) are simply absent.
 */
final class MySqlCounters implements ServerCounterSource {

    /** Status variables that are values at the reading. */
    static final Set<String> STATUS_GAUGES = Set.of(
            "Threads_running", "Threads_connected",
            "Innodb_buffer_pool_pages_dirty", "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_pages_free",
            "Innodb_buffer_pool_pages_data",
            // MariaDB
            "Innodb_checkpoint_age", "Innodb_checkpoint_max_age", "Innodb_history_list_length",
            "Innodb_row_lock_current_waits");

    /** Status variables that only grow (until a restart or FLUSH STATUS). */
    static final Set<String> STATUS_COUNTERS = Set.of(
            "Questions", "Com_commit", "Com_rollback",
            "Innodb_os_log_written", "Innodb_os_log_fsyncs", "Innodb_log_waits", "Innodb_log_write_requests",
            "Innodb_data_fsyncs", "Innodb_data_written", "Innodb_data_read",
            "Innodb_buffer_pool_pages_flushed", "Innodb_buffer_pool_read_requests", "Innodb_buffer_pool_reads",
            "Innodb_buffer_pool_wait_free", "Innodb_buffer_pool_write_requests",
            "Innodb_row_lock_waits", "Innodb_row_lock_time",
            "Innodb_rows_read", "Innodb_rows_inserted", "Innodb_rows_updated", "Innodb_rows_deleted",
            "Innodb_deadlocks", "Table_locks_waited", "Created_tmp_disk_tables", "Slow_queries",
            // MariaDB: log sequence numbers (bytes of redo log ever written, the last checkpoint's)
            "Innodb_lsn_current", "Innodb_lsn_last_checkpoint",
            // MySQL 8.0.30 and later
            "Innodb_redo_log_current_lsn", "Innodb_redo_log_checkpoint_lsn");

    /** {@code INNODB_METRICS} values, read only where the server keeps them enabled. */
    static final List<String> INNODB_METRICS = List.of(
            "log_lsn_checkpoint_age", "log_max_modified_age_async", "trx_rseg_history_len");

    private static final String SHOW_STATUS = "SHOW GLOBAL STATUS WHERE Variable_name IN ("
            + quoted(STATUS_GAUGES) + ", " + quoted(STATUS_COUNTERS) + ")";

    private static final String METRICS = "SELECT * FROM information_schema.INNODB_METRICS WHERE NAME IN ("
            + quoted(INNODB_METRICS) + ")";

    /** Sessions at work by state; the sampler's own, idle and server threads are not load. */
    private static final String STATES = "SELECT STATE, COUNT(*) FROM information_schema.PROCESSLIST"
            + " WHERE ID <> CONNECTION_ID() AND COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump', 'Binlog Dump GTID')"
            + " AND STATE IS NOT NULL AND STATE <> '' GROUP BY STATE";

    private final CounterQueries queries = new CounterQueries("MySQL")
            .add("SHOW GLOBAL STATUS", (c, r) -> CounterQueries.namedValues(c, SHOW_STATUS, STATUS_GAUGES,
                    STATUS_COUNTERS, r))
            .add("information_schema.INNODB_METRICS", MySqlCounters::innodbMetrics)
            .add("information_schema.PROCESSLIST", (c, r) -> CounterQueries.nameValueRows(c, STATES,
                    (state, count) -> r.gauge("state." + state, Long.parseLong(count))));

    @Override
    public CounterReading read(Connection c) throws SQLException {
        return queries.read(c);
    }

    /**
     * The metrics the server keeps (MariaDB says so in {@code ENABLED} 0/1, MySQL in {@code STATUS}
     * 'enabled'/'disabled'): a disabled one reads 0, which is no reading.
     */
    private static void innodbMetrics(Connection c, CounterReading into) throws SQLException {
        try (Statement st = CounterQueries.statement(c); ResultSet rs = st.executeQuery(METRICS)) {
            ResultSetMetaData m = rs.getMetaData();
            String enabledColumn = null;
            for (int i = 1; i <= m.getColumnCount(); i++) {
                String name = m.getColumnLabel(i).toUpperCase(java.util.Locale.ROOT);
                if (name.equals("ENABLED") || name.equals("STATUS")) {
                    enabledColumn = name;
                }
            }
            while (rs.next()) {
                boolean enabled = "ENABLED".equals(enabledColumn) ? rs.getInt(enabledColumn) == 1
                        : "STATUS".equals(enabledColumn) && "enabled".equalsIgnoreCase(rs.getString(enabledColumn));
                if (enabled) {
                    into.gauge(rs.getString("NAME"), rs.getLong("COUNT"));
                }
            }
        }
    }

    private static String quoted(java.util.Collection<String> names) {
        return names.stream().sorted().map(n -> "'" + n + "'").collect(Collectors.joining(", "));
    }
}
