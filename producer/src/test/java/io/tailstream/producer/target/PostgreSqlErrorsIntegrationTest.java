package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.schemas.block.SampleStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Errors the local PostgreSQL raises ({@link PostgreSqlTestServer}), through the pool a run uses: the three SQLStates
 * sysbench's pgsql driver ignores (23505, 40P01, 40001) land in the dialect's default ignored classes, a lock timeout
 * does not (sysbench stops there too), and a terminated backend is a lost connection.
 */
class PostgreSqlErrorsIntegrationTest {

    static final String TABLE = "ts_errors";

    @Test
    void sysbenchsIgnorableStates_areDefaultIgnored_othersAreNot() throws Exception {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 4)) {
            Dialect dialect = tc.dialect();
            DataSource ds = tc.dataSource();
            execute(ds, "DROP TABLE IF EXISTS " + TABLE);
            execute(ds, "CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, v INT NOT NULL)");
            execute(ds, "INSERT INTO " + TABLE + " VALUES (1, 0), (2, 0)");
            try {
                SQLException duplicate = assertThrows(SQLException.class,
                        () -> execute(ds, "INSERT INTO " + TABLE + " VALUES (1, 1)"));
                SQLException deadlock = ConflictScenarios.deadlock(ds, TABLE);
                SQLException serialization = serializationFailure(ds);
                SQLException lockTimeout = lockTimeout(ds);
                assertThat(List.of(duplicate.getSQLState(), deadlock.getSQLState(), serialization.getSQLState(),
                        lockTimeout.getSQLState())).containsExactly("23505", "40P01", "40001", "55P03");
                assertThat(dialect.classify(duplicate)).isEqualTo(SampleStatus.DUPLICATE_KEY);
                assertThat(dialect.classify(deadlock)).isEqualTo(SampleStatus.DEADLOCK);
                assertThat(dialect.classify(serialization)).isEqualTo(SampleStatus.DEADLOCK);
                assertThat(dialect.classify(lockTimeout)).isEqualTo(SampleStatus.LOCK_WAIT_TIMEOUT);
                assertThat(dialect.defaultIgnoredErrors()).contains(dialect.classify(duplicate),
                        dialect.classify(deadlock), dialect.classify(serialization))
                        .doesNotContain(dialect.classify(lockTimeout));
                assertThat(dialect.classify(terminated(ds))).isEqualTo(SampleStatus.CONNECTION_LOST);
            } finally {
                execute(ds, "DROP TABLE IF EXISTS " + TABLE);
            }
        }
    }

    /** A repeatable-read transaction updates a row another transaction changed after its snapshot. */
    private static SQLException serializationFailure(DataSource ds) throws SQLException {
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection();
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            try {
                sa.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                sa.executeQuery("SELECT v FROM " + TABLE + " WHERE id = 1").close();
                sb.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1");
                return assertThrows(SQLException.class,
                        () -> sa.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1"));
            } finally {
                a.rollback();
                a.setAutoCommit(true);
            }
        }
    }

    /** One transaction holds row 1; another, with a 100 ms lock timeout, tries to update it. */
    private static SQLException lockTimeout(DataSource ds) throws SQLException {
        try (Connection holder = ds.getConnection(); Connection waiter = ds.getConnection();
             Statement h = holder.createStatement(); Statement w = waiter.createStatement()) {
            holder.setAutoCommit(false);
            waiter.setAutoCommit(false);
            try {
                h.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1");
                w.execute("SET LOCAL lock_timeout = '100ms'");
                return assertThrows(SQLException.class,
                        () -> w.executeUpdate("UPDATE " + TABLE + " SET v = v + 1 WHERE id = 1"));
            } finally {
                holder.rollback();
                waiter.rollback();
                holder.setAutoCommit(true);
                waiter.setAutoCommit(true);
            }
        }
    }

    /** The server ends the backend between two statements, as an administrator or a failover would. */
    private static SQLException terminated(DataSource ds) throws SQLException {
        return ConflictScenarios.endedBetweenStatements(ds, "SELECT pg_backend_pid()",
                pid -> "SELECT pg_terminate_backend(" + pid + ")");
    }

    private static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("SET lock_timeout = '30s'"); // a stuck test fails instead of hanging
            st.execute(sql);
        }
    }
}
