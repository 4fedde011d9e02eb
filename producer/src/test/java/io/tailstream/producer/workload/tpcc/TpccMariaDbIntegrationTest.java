package io.tailstream.producer.workload.tpcc;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The TPC-C load of 1 and 2 warehouses and the five transactions in the local MariaDB ({@link MySqlTestServer}). */
class TpccMariaDbIntegrationTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void load_rowsRangesAndConsistency_asSpecified(int warehouses) throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 3)) {
            try {
                TpccLoadContract.loadAndCheck(tc.dataSource(), tc.dialect(), warehouses);
            } finally {
                TpccLoader.drop(tc.dataSource(), System.out);
            }
        }
    }

    @Test
    void transactions_changeWhatTheySpecify_andKeepTheConditions() throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 5)) {
            TpccTransactionsContract.check(tc.dataSource(), tc.dialect());
        }
    }
}
