package io.tailstream.producer.workload.sysbench;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sysbench script against the local MariaDB ({@link MySqlTestServer}: skipped with a message when
 * {@code TAILSTREAM_MYSQL_URL} is unset), with server-side prepared statements as in a run.
 */
class SysbenchScriptsMariaDbIntegrationTest {

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

    /**
     * Every script with its default options, through each driver the producer accepts: the statements and writes of
     * the contract, and the server sees what sysbench 1.0.20 sends it ({@code --db-ps-mode=auto}):
     * every statement of an event, BEGIN and COMMIT included, as one execution of a statement prepared before the
     * events ({@code Com_stmt_execute}), no text query, no new prepare — except oltp_insert's INSERT, which the Lua
     * sends as text ({@code con:query}).
     */
    @ParameterizedTest(name = "{0} via jdbc:{1}:")
    @MethodSource("scriptsAndDrivers")
    void script_sendsWhatSysbenchSends_throughEitherDriver(OltpScript script, String scheme) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(scheme), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 3)) {
            SysbenchScriptContract.check(script, Map.of(), tc.dataSource(), tc.dialect(),
                    SysbenchScriptsMariaDbIntegrationTest::sessionCounters, (s, perEvent, events) -> s == OltpScript.INSERT
                            ? Map.of("Com_stmt_execute", 0L, "Com_stmt_prepare", 0L, "Com_insert", (long) events)
                            : Map.of("Com_stmt_execute", perEvent * events, "Com_stmt_prepare", 0L,
                                    "Com_insert", s.runs(OltpScript.Group.DELETE_INSERTS) ? (long) events : 0L));
        }
    }

    static Stream<Arguments> scriptsAndDrivers() {
        return Stream.of(OltpScript.values()).flatMap(s -> Stream.of(Arguments.of(s, "mysql"),
                Arguments.of(s, "mariadb")));
    }

    /** The session's statement counters; reading them is a text query, which none of them counts. */
    private static Map<String, Long> sessionCounters(Connection c) throws SQLException {
        Map<String, Long> m = new java.util.HashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW SESSION STATUS WHERE"
                + " Variable_name IN ('Com_stmt_execute', 'Com_stmt_prepare', 'Com_insert')")) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    private static void check(OltpScript script, Map<String, String> options) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 3)) {
            SysbenchScriptContract.check(script, options, tc.dataSource(), tc.dialect());
        }
    }
}
