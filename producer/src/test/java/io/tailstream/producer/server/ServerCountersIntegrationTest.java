package io.tailstream.producer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each product's counters read from the real server, and a stall injected on it (a session blocked by a table lock,
 * a global read lock, a row lock) seen in the counters that name it. Other tests may share the server, so a gauge is
 * waited for until it shows the blocked session (never asserted to be exactly one, or zero before).
 */
class ServerCountersIntegrationTest {

    private static final long WAIT_MS = 20_000;

    /** Reads until {@code shown} holds (or {@link #WAIT_MS} pass), returning the last reading. */
    private static CounterReading readUntil(ServerCounterSource source, Connection c, Predicate<CounterReading> shown)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        CounterReading r = source.read(c);
        while (!shown.test(r) && System.nanoTime() - deadline < 0) {
            Thread.sleep(50);
            r = source.read(c);
        }
        return r;
    }

    private static long gauge(CounterReading r, String name) {
        return r.gauges().getOrDefault(name, 0L);
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mysql", "mariadb"})
    void mariadb_essentials_andEachInjectedLockInTheStateItPuts(String scheme) throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("maria-" + scheme, server.url(scheme), server.user(), server::password);
        String table = "sc_" + scheme + "_" + ProcessHandle.current().pid();
        ExecutorService blocked = Executors.newSingleThreadExecutor();
        try (TargetConnections tc = TargetConnections.open(target, 3);
             Connection sampler = tc.dataSource().getConnection();
             Connection locker = tc.dataSource().getConnection();
             Connection writer = tc.dataSource().getConnection()) {
            exec(locker, "DROP TABLE IF EXISTS " + table);
            exec(locker, "CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT) ENGINE=InnoDB");
            exec(locker, "INSERT INTO " + table + " VALUES (1, 0)");
            ServerCounterSource source = ServerCounterSource.forDialect(tc.dialect());

            CounterReading before = source.read(sampler);
            assertThat(before.gauges()).containsKeys("Threads_running", "Threads_connected",
                    "Innodb_buffer_pool_pages_dirty", "Innodb_buffer_pool_pages_total",
                    // MariaDB's own, and the enabled INNODB_METRICS
                    "Innodb_checkpoint_age", "Innodb_checkpoint_max_age", "trx_rseg_history_len");
            assertThat(before.gauges()).doesNotContainKey("log_lsn_checkpoint_age"); // disabled by default
            assertThat(before.counters()).containsKeys("Innodb_os_log_written", "Innodb_row_lock_waits",
                    "Innodb_data_fsyncs", "Com_commit", "Questions", "Innodb_lsn_current");
            assertThat(gauge(before, "Innodb_buffer_pool_pages_total")).isPositive();

            // a write moves the redo log; the counters only grow
            exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
            CounterReading after = source.read(sampler);
            assertThat(after.counters().get("Innodb_os_log_written"))
                    .isGreaterThan(before.counters().get("Innodb_os_log_written"));
            assertThat(after.counters().get("Questions")).isGreaterThan(before.counters().get("Questions"));

            // a table lock: the writer waits on the table's metadata lock
            exec(locker, "LOCK TABLES " + table + " WRITE");
            Future<?> update = blocked.submit(() -> {
                exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                return null;
            });
            String mdl = "state.Waiting for table metadata lock";
            assertThat(gauge(readUntil(source, sampler, r -> gauge(r, mdl) >= 1), mdl)).isPositive();
            exec(locker, "UNLOCK TABLES");
            update.get(WAIT_MS, TimeUnit.MILLISECONDS);

            // a global read lock (FLUSH TABLES WITH READ LOCK): the writer waits on it, under MariaDB's name for it
            exec(locker, "FLUSH TABLES WITH READ LOCK");
            update = blocked.submit(() -> {
                exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                return null;
            });
            CounterReading ftwrl = readUntil(source, sampler, r -> waitingOnGlobalLock(r) >= 1);
            exec(locker, "UNLOCK TABLES");
            update.get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(waitingOnGlobalLock(ftwrl)).as(ftwrl.gauges().toString()).isPositive();

            // a row lock: InnoDB counts the waiting transaction
            locker.setAutoCommit(false);
            exec(locker, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
            update = blocked.submit(() -> {
                exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                return null;
            });
            long waitsBefore = after.counters().get("Innodb_row_lock_waits");
            CounterReading rowLock = readUntil(source, sampler,
                    r -> gauge(r, "Innodb_row_lock_current_waits") >= 1);
            locker.commit();
            locker.setAutoCommit(true);
            update.get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(gauge(rowLock, "Innodb_row_lock_current_waits")).isPositive();
            assertThat(source.read(sampler).counters().get("Innodb_row_lock_waits")).isGreaterThan(waitsBefore);
            exec(locker, "DROP TABLE " + table);
        } finally {
            blocked.shutdownNow();
        }
    }

    /** Sessions waiting on a global read lock: MariaDB names it a backup lock, MySQL a global read lock. */
    private static long waitingOnGlobalLock(CounterReading r) {
        return gauge(r, "state.Waiting for global read lock") + gauge(r, "state.Waiting for backup lock");
    }

    @Test
    void postgresql_statistics_walAndCheckpointAge_andARowLockAsAWaitEvent() throws Exception {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        Target target = TestTargets.postgresql(server);
        String table = "sc_pg_" + ProcessHandle.current().pid();
        ExecutorService blocked = Executors.newSingleThreadExecutor();
        try (TargetConnections tc = TargetConnections.open(target, 3);
             Connection sampler = tc.dataSource().getConnection();
             Connection locker = tc.dataSource().getConnection();
             Connection writer = tc.dataSource().getConnection()) {
            exec(locker, "DROP TABLE IF EXISTS " + table);
            exec(locker, "CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT)");
            exec(locker, "INSERT INTO " + table + " VALUES (1, 0)");
            ServerCounterSource source = ServerCounterSource.forDialect(tc.dialect());

            CounterReading before = source.read(sampler);
            assertThat(before.gauges()).containsKeys("pg_stat_database.numbackends", "sessions.active",
                    "sessions.idle_in_transaction", "checkpoint_age", "max_wal_size");
            assertThat(before.counters()).containsKeys("pg_stat_database.xact_commit",
                    "pg_stat_database.blks_hit", "pg_stat_bgwriter.checkpoints_timed",
                    "pg_stat_bgwriter.buffers_checkpoint", "pg_stat_wal.wal_bytes", "pg_stat_wal.wal_records",
                    "wal_lsn");
            assertThat(gauge(before, "max_wal_size")).isPositive();
            assertThat(gauge(before, "checkpoint_age")).isNotNegative();

            exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
            assertThat(source.read(sampler).counters().get("wal_lsn")).isGreaterThan(before.counters().get("wal_lsn"));

            // a row lock: the writer waits for the locker's transaction
            locker.setAutoCommit(false);
            exec(locker, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
            Future<?> update = blocked.submit(() -> {
                exec(writer, "UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                return null;
            });
            String wait = "wait.Lock:transactionid";
            CounterReading rowLock = readUntil(source, sampler, r -> gauge(r, wait) >= 1);
            assertThat(gauge(rowLock, "sessions.idle_in_transaction")).isPositive();
            locker.commit();
            locker.setAutoCommit(true);
            update.get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(gauge(rowLock, wait)).as(rowLock.gauges().toString()).isPositive();
            exec(locker, "DROP TABLE " + table);
        } finally {
            blocked.shutdownNow();
        }
    }

    @Test
    void h2_fileCounters_andABlockedSession() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("tailstream-h2-counters");
        Target target = Target.h2File("h2-file", dir, "counters");
        ExecutorService blocked = Executors.newSingleThreadExecutor();
        try (TargetConnections tc = TargetConnections.open(target, 3);
             Connection sampler = tc.dataSource().getConnection();
             Connection locker = tc.dataSource().getConnection();
             Connection writer = tc.dataSource().getConnection()) {
            exec(locker, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            exec(locker, "INSERT INTO t VALUES (1, 0)");
            ServerCounterSource source = ServerCounterSource.forDialect(tc.dialect());
            CounterReading before = source.read(sampler);
            assertThat(before.counters()).containsKeys("info.FILE_WRITE", "info.FILE_WRITE_BYTES", "info.FILE_READ");
            assertThat(before.gauges()).containsKeys("info.FILE_SIZE", "sessions.all", "sessions.blocked");
            // the pool's other two sessions; the sampler's own is left out
            assertThat(gauge(before, "sessions.all")).isEqualTo(2);

            locker.setAutoCommit(false);
            exec(locker, "UPDATE t SET v = 1 WHERE id = 1");
            exec(writer, "SET LOCK_TIMEOUT " + WAIT_MS);
            Future<?> update = blocked.submit(() -> {
                exec(writer, "UPDATE t SET v = 2 WHERE id = 1");
                return null;
            });
            CounterReading lock = readUntil(source, sampler, r -> gauge(r, "sessions.blocked") >= 1);
            assertThat(gauge(lock, "sessions.uncommitted")).isEqualTo(1);
            locker.commit();
            update.get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(lock.gauges()).containsEntry("sessions.blocked", 1L);
        } finally {
            blocked.shutdownNow();
        }
    }

    @Test
    void eachDialect_readsWithItsProductsSource() {
        assertThat(Map.of("h2", H2Counters.class, "mysql", MySqlCounters.class, "postgresql",
                PostgreSqlCounters.class)).allSatisfy((dialect, type) -> assertThat(ServerCounterSource.forDialect(
                        io.tailstream.producer.target.Dialect.forUrl(url(dialect)))).isInstanceOf(type));
    }

    private static String url(String dialect) {
        return switch (dialect) {
            case "h2" -> "jdbc:h2:mem:x";
            case "mysql" -> "jdbc:mysql://127.0.0.1/x";
            default -> "jdbc:postgresql://127.0.0.1/x";
        };
    }
}
