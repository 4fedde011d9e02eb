package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** A primary with read-only endpoints: which endpoint each worker connection comes from, exactly. */
class ReadOnlyEndpointsH2IntegrationTest {

    static final String PRIMARY = "jdbc:h2:mem:ep-primary;DB_CLOSE_DELAY=-1";
    static final String RO1 = "jdbc:h2:mem:ep-ro1;DB_CLOSE_DELAY=-1";
    static final String RO2 = "jdbc:h2:mem:ep-ro2;DB_CLOSE_DELAY=-1";

    static Target target() {
        return Target.withReadOnlyEndpoints("h2-3nodes", PRIMARY, List.of(RO1, RO2), "sa", () -> "");
    }

    @Test
    void readOnlyWorkload_workersRoundRobinOverPrimaryAndReadOnlyEndpoints() throws SQLException {
        try (TargetConnections tc = TargetConnections.open(target(), 7)) {
            assertThat(tc.endpoints()).isEqualTo(3);
            List<String> urls = urls(tc.dataSourceFor(Workloads.create(WorkloadSpec.of("oltp_point_select"))), 7);
            assertThat(urls).containsExactly("jdbc:h2:mem:ep-primary", "jdbc:h2:mem:ep-ro1", "jdbc:h2:mem:ep-ro2",
                    "jdbc:h2:mem:ep-primary", "jdbc:h2:mem:ep-ro1", "jdbc:h2:mem:ep-ro2", "jdbc:h2:mem:ep-primary");
            assertThat(urls(tc.dataSourceFor(Workloads.create(WorkloadSpec.of("ycsb_c"))), 3))
                    .doesNotHaveDuplicates();
        }
    }

    @Test
    void writingWorkloads_andPreparation_usePrimaryOnly() throws SQLException {
        try (TargetConnections tc = TargetConnections.open(target(), 4)) {
            for (String w : List.of("oltp_read_write", "oltp_write_only", "oltp_insert", "ycsb_a", "ycsb_d",
                    "large_row_insert")) {
                assertThat(urls(tc.dataSourceFor(Workloads.create(WorkloadSpec.of(w))), 4)).as(w)
                        .containsOnly("jdbc:h2:mem:ep-primary");
            }
            assertThat(urls(tc.dataSource(), 2)).containsOnly("jdbc:h2:mem:ep-primary");
            assertThat(tc.describe(null).nodes()).isEqualTo(3);
        }
    }

    @Test
    void singleEndpoint_readOnlyWorkloadUsesThePrimary() throws SQLException {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2-1node", "ep-single"), 3)) {
            assertThat(tc.endpoints()).isEqualTo(1);
            assertThat(urls(tc.dataSourceFor(Workloads.create(WorkloadSpec.of("oltp_read_only"))), 3))
                    .containsOnly("jdbc:h2:mem:ep-single");
            assertThat(tc.describe(null).nodes()).isNull();
        }
    }

    @Test
    void endpoints_mustBeJdbcUrlsOfTheSameProduct_andAreRedacted() {
        assertThatThrownBy(() -> Target.withReadOnlyEndpoints("t", PRIMARY, List.of("http://x"), "sa", () -> ""))
                .hasMessageContaining("read-only endpoint URL must start with 'jdbc:'");
        assertThatThrownBy(() -> Target.withReadOnlyEndpoints("t", PRIMARY,
                List.of("jdbc:mysql://u:secret@h/db"), "sa", () -> ""))
                .hasMessageContaining("not the same product").hasMessageNotContaining("secret");
        Target t = Target.withReadOnlyEndpoints("t", "jdbc:mysql://h1/db", List.of("jdbc:mysql://u:secret@h2/db"),
                "u", () -> "pw");
        assertThat(t.toString()).contains("read-only").doesNotContain("secret");
        assertThat(t.endpoints()).containsExactly("jdbc:mysql://h1/db", "jdbc:mysql://u:secret@h2/db");
    }

    @Test
    void unreachableReadOnlyEndpoint_failsAtOpen_namingIt() {
        Target t = Target.withReadOnlyEndpoints("t", PRIMARY, List.of("jdbc:h2:mem:ep-x;IFEXISTS=TRUE"), "sa",
                () -> "");
        assertThatThrownBy(() -> TargetConnections.open(t, 2)).isInstanceOf(TargetException.class)
                .hasMessageContaining("cannot connect to target 't' (jdbc:h2:mem:ep-x");
    }

    private static List<String> urls(DataSource ds, int n) throws SQLException {
        List<Connection> held = new ArrayList<>();
        List<String> urls = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Connection c = ds.getConnection();
                held.add(c);
                String url = c.getMetaData().getURL();
                urls.add(url);
            }
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        return urls;
    }
}
