package io.tailstream.producer.workload.sysbench;

import io.tailstream.infra.mysql.MySqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every sysbench script against the local MariaDB ({@link MySqlTestServer}: skipped with a message when
 * {@code TAILSTREAM_MYSQL_URL} is unset), with server-side prepared statements as in a run.
 */
class SysbenchScriptsMariaDbIntegrationTest {

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_defaults_exactStatementsAndWrites(OltpScript script) throws SQLException {
        check(script, Map.of());
    }

    @ParameterizedTest
    @EnumSource(value = OltpScript.class, names = {"INSERT", "WRITE_ONLY", "READ_WRITE"})
    void script_noAutoIncSkipTrxPareto_exactStatementsAndWrites(OltpScript script) throws SQLException {
        check(script, Map.of("auto_inc", "off", "skip_trx", "on", "rand_type", "pareto"));
    }

    @ParameterizedTest
    @EnumSource(value = OltpScript.class, names = {"INSERT", "READ_WRITE", "DELETE"})
    void script_secondaryIdIndex_exactStatementsAndWrites(OltpScript script) throws SQLException {
        check(script, Map.of("secondary", "on"));
    }

    private static void check(OltpScript script, Map<String, String> options) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 3)) {
            SysbenchScriptContract.check(script, options, tc.dataSource(), tc.dialect());
        }
    }
}
