package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The TPC-C load of 1 warehouse and the five transactions in embedded H2, the demo's database. */
class TpccH2IntegrationTest {

    @Test
    void load_rowsRangesAndConsistency_asSpecified() throws SQLException {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "tpcc-load"), 3)) {
            TpccLoadContract.loadAndCheck(tc.dataSource(), tc.dialect(), 1);
        }
    }

    @Test
    void transactions_changeWhatTheySpecify_andKeepTheConditions() throws Exception {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "tpcc-run"), 5)) {
            TpccTransactionsContract.check(tc.dataSource(), tc.dialect());
        }
    }
}
