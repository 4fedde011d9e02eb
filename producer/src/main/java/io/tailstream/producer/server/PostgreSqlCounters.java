package io.tailstream.producer.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * PostgreSQL: the current database's {@code pg_stat_database}, {@code pg_stat_bgwriter}, {@code pg_stat_checkpointer}
 * (PostgreSQL 17 and later, which moved the checkpoint counters there), {@code pg_stat_wal} (14 and later), the WAL
 * position and the checkpoint age (WAL bytes since the last checkpoint's redo point, with {@code max_wal_size}, the
 * distance at which a checkpoint is forced), and the client sessions at work by wait event from
 * {@code pg_stat_activity} ({@code wait.Lock:transactionid}; {@code wait.running} for those waiting on nothing the
 * server instruments, mostly on CPU). Times in ms ({@code checkpoint_write_time}) are rounded to whole ms.
 */
final class PostgreSqlCounters implements ServerCounterSource {

    private static final String DATABASE = "SELECT numbackends, xact_commit, xact_rollback, blks_read, blks_hit,"
            + " tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted, conflicts, temp_files, temp_bytes,"
            + " deadlocks FROM pg_stat_database WHERE datname = current_database()";

    private static final String WAL_POSITION = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal_lsn";

    private static final String CHECKPOINT_AGE = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint"
            + " AS checkpoint_age, pg_size_bytes(current_setting('max_wal_size')) AS max_wal_size"
            + " FROM pg_control_checkpoint()";

    private static final String SESSIONS = "SELECT count(*) FILTER (WHERE state = 'active') AS active,"
            + " count(*) FILTER (WHERE state LIKE 'idle in transaction%') AS idle_in_transaction"
            + " FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()";

    private static final String WAITS = "SELECT coalesce(wait_event_type || ':' || wait_event, 'running'), count(*)"
            + " FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend'"
            + " AND pid <> pg_backend_pid() GROUP BY 1";

    private final CounterQueries queries = new CounterQueries("PostgreSQL")
            .add("pg_stat_database", (c, r) -> CounterQueries.numericColumns(c, DATABASE, "pg_stat_database.",
                    Set.of("numbackends"), r))
            .add("pg_stat_bgwriter", (c, r) -> CounterQueries.numericColumns(c, "SELECT * FROM pg_stat_bgwriter",
                    "pg_stat_bgwriter.", Set.of(), r))
            .add("pg_stat_checkpointer", (c, r) -> {
                if (major(c) >= 17) {
                    CounterQueries.numericColumns(c, "SELECT * FROM pg_stat_checkpointer", "pg_stat_checkpointer.",
                            Set.of(), r);
                }
            })
            .add("pg_stat_wal", (c, r) -> {
                if (major(c) >= 14) {
                    CounterQueries.numericColumns(c, "SELECT * FROM pg_stat_wal", "pg_stat_wal.", Set.of(), r);
                }
            })
            .add("pg_current_wal_lsn()", (c, r) -> CounterQueries.numericColumns(c, WAL_POSITION, "", Set.of(), r))
            .add("pg_control_checkpoint()", (c, r) -> CounterQueries.numericColumns(c, CHECKPOINT_AGE, "",
                    Set.of("checkpoint_age", "max_wal_size"), r))
            .add("pg_stat_activity", (c, r) -> {
                CounterQueries.numericColumns(c, SESSIONS, "sessions.", Set.of("active", "idle_in_transaction"), r);
                CounterQueries.nameValueRows(c, WAITS, (wait, n) -> r.gauge("wait." + wait, Long.parseLong(n)));
            });

    @Override
    public CounterReading read(Connection c) throws SQLException {
        return queries.read(c);
    }

    private static int major(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseMajorVersion();
    }
}
