package io.tailstream.producer.workload.tpcc;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The TPC-C load of 1 and 2 warehouses and the five transactions in the local PostgreSQL ({@link PostgreSqlTestServer}). */
class TpccPostgreSqlIntegrationTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void load_rowsRangesAndConsistency_asSpecified(int warehouses) throws SQLException {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 3)) {
            try {
                TpccLoadContract.loadAndCheck(tc.dataSource(), tc.dialect(), warehouses);
            } finally {
                TpccLoader.drop(tc.dataSource(), System.out);
            }
        }
    }

    @Test
    void transactions_changeWhatTheySpecify_andKeepTheConditions() throws Exception {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 5)) {
            TpccTransactionsContract.check(tc.dataSource(), tc.dialect());
        }
    }
}
