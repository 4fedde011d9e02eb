package io.tailstream.producer.workload.ycsb;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every YCSB preset against the local PostgreSQL ({@link PostgreSqlTestServer}; skipped with a message without it). */
class YcsbPostgreSqlIntegrationTest {

    @ParameterizedTest
    @EnumSource(YcsbPreset.class)
    void preset_opMixStatementsAndInserts_exact(YcsbPreset preset) throws SQLException {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 4)) {
            YcsbContract.check(preset, Map.of("table", "usertable_it"), 500, tc.dataSource(), tc.dialect());
        }
    }
}
