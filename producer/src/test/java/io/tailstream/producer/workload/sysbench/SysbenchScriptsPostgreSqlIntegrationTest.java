package io.tailstream.producer.workload.sysbench;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every sysbench script against the local PostgreSQL ({@link PostgreSqlTestServer}; skipped with a message when it
 * cannot be reached): the same workload code, SQL differences in the dialect only.
 */
class SysbenchScriptsPostgreSqlIntegrationTest {

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_defaults_exactStatementsAndWrites(OltpScript script) throws SQLException {
        check(script, Map.of());
    }

    @ParameterizedTest
    @EnumSource(value = OltpScript.class, names = {"INSERT", "READ_WRITE"})
    void script_noAutoIncSkipTrx_exactStatementsAndWrites(OltpScript script) throws SQLException {
        check(script, Map.of("auto_inc", "off", "skip_trx", "on", "rand_type", "uniform"));
    }

    private static void check(OltpScript script, Map<String, String> options) throws SQLException {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 3)) {
            SysbenchScriptContract.check(script, options, tc.dataSource(), tc.dialect());
        }
    }
}
