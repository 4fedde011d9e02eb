package io.tailstream.producer.workload.largerow;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The large-row workload against the local MariaDB ({@link MySqlTestServer}; skipped with a message without it). */
class LargeRowInsertMariaDbIntegrationTest {

    @Test
    void defaultsRowSize_exactRowsAndSizes() throws SQLException {
        MySqlTestServer server = MySqlTestServer.require();
        Target target = Target.of("mariadb-local", server.url(), server.user(), server::password);
        try (TargetConnections tc = TargetConnections.open(target, 3)) {
            LargeRowContract.check(Map.of("tables", "3", "rows_per_table", "4", "rows_per_insert", "2"), 40,
                    tc.dataSource(), tc.dialect());
        }
    }
}
