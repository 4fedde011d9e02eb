package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.schemas.event.TargetInfo;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The variables captured at step start for the fairness profile, against the local MariaDB (both drivers),
 * PostgreSQL and H2: present under their exact names, normalised, the isolation level the pool's sessions really
 * run at, and the workload's data size.
 */
class TargetVariablesIntegrationTest {

    static final List<String> LEVELS = List.of("READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mysql", "mariadb"})
    void mariadb_profileVariables_sessionIsolation_dataBytes(String scheme) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("maria", server.url(scheme), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 2)) {
            // a plan that names its own variables still gets the profile's
            Map<String, String> vars = tc.describe(List.of("max_connections")).variables();
            assertThat(vars).containsKeys("max_connections", "innodb_flush_log_at_trx_commit", "sync_binlog",
                    "log_bin", "innodb_doublewrite", "innodb_buffer_pool_size", "innodb_flush_method",
                    "rpl_semi_sync_master_enabled", "rpl_semi_sync_master_wait_point", "tailstream.jdbc_driver");
            assertThat(vars.keySet()).containsAnyOf("transaction_isolation", "tx_isolation");
            String serverLevel = vars.getOrDefault("transaction_isolation", vars.get("tx_isolation"));
            assertThat(vars.get("tailstream.isolation")).isIn(LEVELS)
                    .isEqualTo(serverLevel.replace('-', ' ').toUpperCase(java.util.Locale.ROOT));

            execute(tc, "DROP TABLE IF EXISTS ts_size");
            execute(tc, "CREATE TABLE ts_size (id INT PRIMARY KEY, k INT, KEY k (k)) ENGINE = InnoDB");
            try {
                assertThat(tc.dataBytes(List.of("ts_size", "ts_missing"))).isEqualTo(queryLong(tc,
                        "SELECT SUM(data_length + index_length) FROM information_schema.TABLES"
                                + " WHERE table_schema = DATABASE() AND table_name = 'ts_size'")).isPositive();
                assertThat(tc.dataBytes(List.of("ts_missing"))).isNull();
            } finally {
                execute(tc, "DROP TABLE IF EXISTS ts_size");
            }
        }
        // the level the sessions run at, not the server's default
        String readCommitted = server.url(scheme) + (server.url(scheme).contains("?") ? "&" : "?")
                + "sessionVariables=tx_isolation='READ-COMMITTED'";
        try (TargetConnections tc = TargetConnections.open(Target.of("maria-rc", readCommitted, server.user(),
                server::password), 1)) {
            assertThat(tc.describe(null).variables()).containsEntry("tailstream.isolation", "READ COMMITTED");
        }
    }

    @Test
    void postgresql_profileSettings_sharedBuffersInBytes_sessionIsolation_dataBytes() throws SQLException {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 2)) {
            TargetInfo info = tc.describe(null);
            Map<String, String> vars = info.variables();
            assertThat(vars).containsKeys("fsync", "synchronous_commit", "full_page_writes",
                    "default_transaction_isolation", "shared_buffers", "synchronous_standby_names",
                    "wal_sync_method", "commit_delay", "tailstream.jdbc_driver");
            assertThat(Long.parseLong(vars.get("shared_buffers")))
                    .isEqualTo(queryLong(tc, "SELECT pg_size_bytes(current_setting('shared_buffers'))"));
            assertThat(Long.parseLong(vars.get("work_mem")))
                    .isEqualTo(queryLong(tc, "SELECT pg_size_bytes(current_setting('work_mem'))"));
            assertThat(vars.get("checkpoint_timeout")).endsWith(" s");
            assertThat(vars.get("tailstream.isolation")).isIn(LEVELS).isEqualTo(vars.get(
                    "default_transaction_isolation").toUpperCase(java.util.Locale.ROOT));

            execute(tc, "DROP TABLE IF EXISTS ts_size");
            execute(tc, "CREATE TABLE ts_size (id INT PRIMARY KEY, k INT)");
            try {
                execute(tc, "INSERT INTO ts_size SELECT g, g FROM generate_series(1, 1000) g");
                execute(tc, "CREATE INDEX ts_size_k ON ts_size (k)");
                assertThat(tc.dataBytes(List.of("TS_SIZE", "ts_missing")))
                        .isEqualTo(queryLong(tc, "SELECT pg_total_relation_size('ts_size')"))
                        .isGreaterThan(queryLong(tc, "SELECT pg_relation_size('ts_size')"));
            } finally {
                execute(tc, "DROP TABLE IF EXISTS ts_size");
            }
        }
        String serializable = server.url() + "&options=-c%20default_transaction_isolation=serializable";
        try (TargetConnections tc = TargetConnections.open(Target.of("pg-ser", serializable, server.user(),
                server::password), 1)) {
            assertThat(tc.describe(null).variables()).containsEntry("tailstream.isolation", "SERIALIZABLE");
        }
    }

    @Test
    void h2_storageWriteDelayCacheSize_fromUrlAndSettings(@TempDir Path dir) {
        try (TargetConnections mem = TargetConnections.open(Target.h2InMemory("h2-mem", "variables"), 1)) {
            Map<String, String> vars = mem.describe(null).variables();
            assertThat(vars).containsEntry("tailstream.h2.storage", "mem").containsEntry("tailstream.isolation",
                    "READ COMMITTED").containsKey("WRITE_DELAY").doesNotContainKey("CACHE_SIZE");
            assertThat(mem.dataBytes(List.of("sbtest1"))).isNull();
        }
        try (TargetConnections file = TargetConnections.open(Target.h2File("h2-file", dir, "variables"), 1)) {
            Map<String, String> vars = file.describe(null).variables();
            assertThat(vars).containsEntry("tailstream.h2.storage", "file").containsEntry("WRITE_DELAY", "0")
                    .containsEntry("CACHE_SIZE", "16384").containsEntry("tailstream.isolation", "READ COMMITTED");
        }
        assertThat(H2Dialect.storage("jdbc:h2:tcp://db.example:9092/mem:x")).isEqualTo("mem");
        assertThat(H2Dialect.storage("jdbc:h2:./data/db")).isEqualTo("file");
    }

    private static void execute(TargetConnections tc, String sql) throws SQLException {
        try (Connection c = tc.dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static long queryLong(TargetConnections tc, String sql) throws SQLException {
        try (Connection c = tc.dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
