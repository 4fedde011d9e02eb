package io.tailstream.producer.workload.largerow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import io.tailstream.producer.workload.H2Sources;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The large-row workload on H2 (and PostgreSQL where reachable), its SQL and its options. */
class LargeRowInsertH2IntegrationTest {

    static final Map<String, String> SMALL = Map.of("tables", "3", "rows_per_table", "4");

    @Test
    void h2_defaultsRowSize_exactRowsAndSizes() throws SQLException {
        LargeRowContract.check(SMALL, 40, H2Sources.inMemory("largerow1"), Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @Test
    void h2_threeRowsPerInsert_exactRowsAndSizes() throws SQLException {
        LargeRowContract.check(Map.of("tables", "2", "rows_per_insert", "3", "value_bytes", "100000",
                "index_key_bytes", "40"), 10, H2Sources.inMemory("largerow2"), Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @Test
    void postgresql_exactRowsAndSizes() throws SQLException {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 3)) {
            LargeRowContract.check(SMALL, 40, tc.dataSource(), tc.dialect());
        }
    }

    @Test
    void sql_perDialect() {
        LargeRowOptions d = LargeRowOptions.defaults();
        assertThat(d.valueBytes()).isEqualTo(9405);
        assertThat(d.indexKeyBytes()).isEqualTo(26);
        assertThat(LargeRowInsertWorkload.createTable(2, d, Dialect.forUrl("jdbc:mysql://h/d"))).isEqualTo(
                "CREATE TABLE lrtest2 (id BIGINT NOT NULL PRIMARY KEY, k VARCHAR(26) NOT NULL, v LONGBLOB NOT NULL)"
                        + " /*! ENGINE = innodb */");
        assertThat(LargeRowInsertWorkload.createTable(2, d, Dialect.forUrl("jdbc:postgresql://h/d")))
                .endsWith("v BYTEA NOT NULL)");
        assertThat(LargeRowInsertWorkload.createTable(2, d, Dialect.forUrl("jdbc:h2:mem:x")))
                .endsWith("v VARBINARY(9405) NOT NULL)");
        assertThat(LargeRowInsertWorkload.createIndex(2)).isEqualTo("CREATE INDEX lrtest2_k ON lrtest2(k)");
        assertThat(LargeRowInsertWorkload.insert(2, 2)).isEqualTo("INSERT INTO lrtest2 (id, k, v) VALUES (?, ?, ?), (?, ?, ?)");
    }

    @Test
    void badOptions_nameKeyAndValue() {
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("large_row_insert", Map.of("value_bytes", "0"))))
                .hasMessageContaining("large_row_insert").hasMessageContaining("value_bytes").hasMessageContaining("0");
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("large_row_insert", Map.of("row_size", "9"))))
                .hasMessageContaining("row_size");
    }
}
