package io.tailstream.producer.workload.ycsb;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every YCSB preset against the local MariaDB ({@link MySqlTestServer}; skipped with a message without it). */
class YcsbMariaDbIntegrationTest {

    @ParameterizedTest
    @EnumSource(YcsbPreset.class)
    void preset_opMixStatementsAndInserts_exact(YcsbPreset preset) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 4)) {
            // its own table name, so no other test in the shared database can collide with it; 500 ops keep the
            // auto-commit writes (one fsync each) to about a second per preset
            YcsbContract.check(preset, Map.of("table", "usertable_it"), 500, tc.dataSource(), tc.dialect());
        }
    }
}
