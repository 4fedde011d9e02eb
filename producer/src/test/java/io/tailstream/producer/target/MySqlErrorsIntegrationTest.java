package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.schemas.block.SampleStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Errors a real MySQL-compatible server raises (the local MariaDB, {@link MySqlTestServer}), classified through
 * the pool a run uses, with each driver the producer accepts for such targets: the classification reads server
 * error codes and SQLStates, so both drivers must land on the same status for the same failure.
 */
class MySqlErrorsIntegrationTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mysql", "mariadb"})
    void serverErrors_classifiedAlike_throughEitherDriver(String scheme) throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        String table = "ts_errors_" + scheme;
        Target target = Target.of("errors-" + scheme, server.url(scheme), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 4)) {
            Dialect dialect = tc.dialect();
            DataSource ds = tc.dataSource();
            execute(ds, "DROP TABLE IF EXISTS " + table);
            execute(ds, "CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL) ENGINE = InnoDB");
            execute(ds, "INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
            try {
                assertThat(dialect.classify(duplicateKey(ds, table))).isEqualTo(SampleStatus.DUPLICATE_KEY);
                assertThat(dialect.classify(lockWaitTimeout(ds, table))).isEqualTo(SampleStatus.LOCK_WAIT_TIMEOUT);
                assertThat(dialect.classify(ConflictScenarios.deadlock(ds, table))).isEqualTo(SampleStatus.DEADLOCK);
                assertThat(dialect.classify(connectionKilled(ds))).isEqualTo(SampleStatus.CONNECTION_LOST);
            } finally {
                execute(ds, "DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static SQLException duplicateKey(DataSource ds, String table) {
        return assertThrows(SQLException.class, () -> execute(ds, "INSERT INTO " + table + " VALUES (1, 1)"));
    }

    /** One transaction holds row 1; another, with a 1 s lock wait limit, tries to update it. */
    private static SQLException lockWaitTimeout(DataSource ds, String table) throws SQLException {
        try (Connection holder = ds.getConnection(); Connection waiter = ds.getConnection();
             Statement h = holder.createStatement(); Statement w = waiter.createStatement()) {
            try {
                h.execute("BEGIN");
                h.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                w.execute("SET SESSION innodb_lock_wait_timeout = 1");
                return assertThrows(SQLException.class,
                        () -> w.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1"));
            } finally {
                rollback(h);
                w.execute("SET SESSION innodb_lock_wait_timeout = DEFAULT");
            }
        }
    }

    /** The server kills the connection between two statements, as a failover or a restart would. */
    private static SQLException connectionKilled(DataSource ds) throws SQLException {
        return ConflictScenarios.endedBetweenStatements(ds, "SELECT CONNECTION_ID()", id -> "KILL CONNECTION " + id);
    }

    /**
     * Ends a transaction opened with BEGIN, which the pool does not know about: one left open would hold its row and
     * metadata locks in the pool and make the cleanup's DROP TABLE wait for ever.
     */
    private static void rollback(Statement st) throws SQLException {
        if (!st.getConnection().isClosed() && st.getConnection().isValid(5)) {
            st.execute("ROLLBACK");
        }
    }

    private static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute("SET SESSION lock_wait_timeout = 30"); // a stuck test fails instead of hanging
            st.execute(sql);
        }
    }
}
