package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.H2Sources;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every sysbench script on embedded H2 against {@link SysbenchScriptContract}. */
class SysbenchScriptsH2IntegrationTest {

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_defaults_exactStatementsAndWrites(OltpScript script) throws SQLException {
        SysbenchScriptContract.check(script, Map.of(), H2Sources.inMemory("contract-" + script), Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @ParameterizedTest
    @EnumSource(OltpScript.class)
    void script_uniformNoAutoIncSkipTrx_exactStatementsAndWrites(OltpScript script) throws SQLException {
        SysbenchScriptContract.check(script, Map.of("rand_type", "uniform", "auto_inc", "off", "skip_trx", "on",
                "index_updates", "3", "point_selects", "4"), H2Sources.inMemory("contract2-" + script),
                Dialect.forUrl("jdbc:h2:mem:x"));
    }
}
