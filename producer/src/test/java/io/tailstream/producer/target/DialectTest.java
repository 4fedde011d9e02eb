package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.schemas.block.SampleStatus;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DialectTest {

    @Test
    void mysql_addsServerSidePreparedStatements_unlessGiven() {
        Dialect d = Dialect.forUrl("jdbc:mysql://h:3306/db");
        assertThat(d.effectiveUrl("jdbc:mysql://h:3306/db"))
                .isEqualTo("jdbc:mysql://h:3306/db?useServerPrepStmts=true&cachePrepStmts=true");
        assertThat(d.effectiveUrl("jdbc:mysql://h/db?useServerPrepStmts=false"))
                .isEqualTo("jdbc:mysql://h/db?useServerPrepStmts=false&cachePrepStmts=true");
        assertThat(d.explicitBeginStatement()).isTrue();
        assertThat(Dialect.forUrl("jdbc:h2:mem:x").explicitBeginStatement()).isFalse();
    }

    @Test
    void unknownUrl_namesSupportedOnes_withoutSecrets() {
        assertThatThrownBy(() -> Dialect.forUrl("jdbc:oracle:thin:scott/tiger@h:1521?password=tiger"))
                .hasMessageContaining("jdbc:mysql:").hasMessageNotContaining("password=tiger");
    }

    @Test
    void classify_byVendorCodeAndSqlState() {
        assertThat(SqlErrors.classify(new SQLException("deadlock", "40001", 1213))).isEqualTo(SampleStatus.DEADLOCK);
        assertThat(SqlErrors.classify(new SQLException("lock wait", "HY000", 1205)))
                .isEqualTo(SampleStatus.LOCK_WAIT_TIMEOUT);
        assertThat(SqlErrors.classify(new SQLException("dup", "23000", 1062))).isEqualTo(SampleStatus.DUPLICATE_KEY);
        assertThat(SqlErrors.classify(new SQLException("dup", "23505", 23505))).isEqualTo(SampleStatus.DUPLICATE_KEY);
        assertThat(SqlErrors.classify(new SQLException("gone", "08S01", 0))).isEqualTo(SampleStatus.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLTransientConnectionException("pool"))).isEqualTo(SampleStatus.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLException("pg deadlock", "40P01"))).isEqualTo(SampleStatus.DEADLOCK);
        assertThat(SqlErrors.classify(new SQLException("h2 lock", "HYT00", 50200)))
                .isEqualTo(SampleStatus.LOCK_WAIT_TIMEOUT);
        assertThat(SqlErrors.classify(new SQLException("syntax", "42000", 1064))).isEqualTo(SampleStatus.OTHER_ERROR);
    }

    @Test
    void connectionKilled_orServerGoing_isALostConnection() {
        assertThat(SqlErrors.classify(new SQLException("Connection was killed", "70100", 1927)))
                .isEqualTo(SampleStatus.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLException("terminating connection due to administrator command",
                "57P01"))).isEqualTo(SampleStatus.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLException("the database system is shutting down", "57P03")))
                .isEqualTo(SampleStatus.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLException("Query execution was interrupted", "70100", 1317)))
                .as("KILL QUERY leaves the connection alive").isEqualTo(SampleStatus.OTHER_ERROR);
    }

    @Test
    void defaultIgnoredErrors_areSysbenchsPerDriver() {
        assertThat(Dialect.forUrl("jdbc:mysql://h/db").defaultIgnoredErrors())
                .containsExactlyInAnyOrder(SampleStatus.DEADLOCK, SampleStatus.LOCK_WAIT_TIMEOUT);
        assertThat(Dialect.forUrl("jdbc:mariadb://h/db").defaultIgnoredErrors())
                .containsExactlyInAnyOrder(SampleStatus.DEADLOCK, SampleStatus.LOCK_WAIT_TIMEOUT);
        assertThat(Dialect.forUrl("jdbc:postgresql://h/db").defaultIgnoredErrors())
                .containsExactlyInAnyOrder(SampleStatus.DEADLOCK, SampleStatus.DUPLICATE_KEY);
        assertThat(Dialect.forUrl("jdbc:h2:mem:x").defaultIgnoredErrors())
                .containsExactlyInAnyOrder(SampleStatus.DEADLOCK, SampleStatus.LOCK_WAIT_TIMEOUT);
        // sysbench's lists, classified: mysql 1213, 1020, 1205; pgsql 40P01, 40001, 23505
        Dialect mysql = Dialect.forUrl("jdbc:mysql://h/db");
        for (SQLException e : List.of(new SQLException("", "40001", 1213), new SQLException("", "HY000", 1020),
                new SQLException("", "HY000", 1205))) {
            assertThat(mysql.defaultIgnoredErrors()).contains(mysql.classify(e));
        }
        Dialect pg = Dialect.forUrl("jdbc:postgresql://h/db");
        for (String state : List.of("40P01", "40001", "23505")) {
            assertThat(pg.defaultIgnoredErrors()).contains(pg.classify(new SQLException("", state)));
        }
        assertThat(pg.defaultIgnoredErrors()).doesNotContain(pg.classify(new SQLException("lock timeout", "55P03")));
    }

    @Test
    void postgresqlMemorySettings_inBytes_othersKeepTheirUnit() {
        assertThat(PostgreSqlDialect.withUnit("16384", "8kB")).isEqualTo("134217728");
        assertThat(PostgreSqlDialect.withUnit("1024", "MB")).isEqualTo("1073741824");
        assertThat(PostgreSqlDialect.withUnit("4096", "kB")).isEqualTo("4194304");
        assertThat(PostgreSqlDialect.withUnit("-1", "8kB")).isEqualTo("-1");
        assertThat(PostgreSqlDialect.withUnit("300", "s")).isEqualTo("300 s");
        assertThat(PostgreSqlDialect.withUnit("on", null)).isEqualTo("on");
    }

    @Test
    void isolationLevels_normalisedToSqlSpelling() {
        assertThat(Dialect.normalizeIsolation("REPEATABLE-READ")).isEqualTo("REPEATABLE READ");
        assertThat(Dialect.normalizeIsolation("read committed")).isEqualTo("READ COMMITTED");
        assertThat(Dialect.normalizeIsolation("READ_UNCOMMITTED")).isEqualTo("READ UNCOMMITTED");
        assertThat(Dialect.isolationOf(java.sql.Connection.TRANSACTION_SERIALIZABLE)).isEqualTo("SERIALIZABLE");
        assertThat(Dialect.isolationOf(java.sql.Connection.TRANSACTION_NONE)).isNull();
    }

    @Test
    void h2_deadlockDetectorRace_isADeadlock_otherGeneralErrorsAreNot() {
        // the message and codes of the JdbcSQLNonTransientException H2 2.3.232 threw in a 4-thread oltp_read_write
        SQLException race = new SQLException("General error: \"Transaction was illegally transitioned from ROLLING_BACK"
                + " to ROLLING_BACK [2.3.232/103]\"; SQL statement:\nDELETE FROM sbtest1 WHERE id=? [50000-232]",
                "HY000", 50000);
        assertThat(H2Dialect.INSTANCE.classify(race)).isEqualTo(SampleStatus.DEADLOCK);
        assertThat(H2Dialect.INSTANCE.classify(new SQLException("General error: \"java.lang.IllegalStateException\"",
                "HY000", 50000))).isEqualTo(SampleStatus.OTHER_ERROR);
        assertThat(H2Dialect.INSTANCE.classify(new SQLException("Deadlock detected", "40001", 40001)))
                .isEqualTo(SampleStatus.DEADLOCK);
        assertThat(MySqlDialect.INSTANCE.classify(race)).as("H2's own bug, recognised for H2 only")
                .isEqualTo(SampleStatus.OTHER_ERROR);
    }

    @Test
    void connectionErrors_maskStandAlonePasswords_notLettersOfWords() {
        assertThat(TargetConnections.withoutPassword("role \"nosuchuser\" does not exist", "x"))
                .isEqualTo("role \"nosuchuser\" does not exist");
        assertThat(TargetConnections.withoutPassword("bad login 'x' for u", "x")).isEqualTo("bad login '****' for u");
        assertThat(TargetConnections.withoutPassword("auth s3cr$t.! failed", "s3cr$t.!"))
                .isEqualTo("auth **** failed");
        assertThat(TargetConnections.withoutPassword("no password", null)).isEqualTo("no password");
    }

    @Test
    void target_toStringAndRedactedUrl_neverShowThePassword() {
        Target t = Target.of("t", "jdbc:mysql://u:hunter2@h/db?password=hunter2", "u", () -> "hunter2");
        assertThat(t.toString()).doesNotContain("hunter2");
        assertThat(t.redactedUrl()).doesNotContain("hunter2");
        assertThatThrownBy(() -> Target.of("t", "mysql://h", null, null)).hasMessageContaining("jdbc:");
    }
}
