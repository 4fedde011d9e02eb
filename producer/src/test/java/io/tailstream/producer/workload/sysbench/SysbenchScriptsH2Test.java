package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;
import java.sql.SQLException;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every sysbench script on embedded H2 against {@link SysbenchScriptContract}. */
class SysbenchScriptsH2Test {

    static JdbcDataSource h2(String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        return ds;
    }

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_defaults_exactStatementsAndWrites(OltpScript script) throws SQLException {
        SysbenchScriptContract.check(script, Map.of(), h2("contract-" + script), Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_uniformNoAutoIncSkipTrx_exactStatementsAndWrites(OltpScript script) throws SQLException {
        SysbenchScriptContract.check(script, Map.of("rand_type", "uniform", "auto_inc", "off", "skip_trx", "on",
                "index_updates", "3", "point_selects", "4"), h2("contract2-" + script),
                Dialect.forUrl("jdbc:h2:mem:x"));
    }
}
