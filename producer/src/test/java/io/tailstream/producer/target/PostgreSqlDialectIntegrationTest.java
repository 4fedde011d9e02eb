package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.schemas.event.TargetInfo;
import org.junit.jupiter.api.Test;

/** The PostgreSQL dialect against the local server: product, version and settings captured. */
class PostgreSqlDialectIntegrationTest {

    @Test
    void describe_readsProductAndSettings() {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 2)) {
            assertThat(tc.dialect().name()).isEqualTo("postgresql");
            TargetInfo info = tc.describe(null);
            assertThat(info.product()).isEqualTo("PostgreSQL");
            assertThat(info.variables()).containsKeys("shared_buffers", "synchronous_commit", "max_connections");
            // in bytes, not pg_settings' 8kB pages
            assertThat(info.variables().get("shared_buffers")).matches("\\d+");
        }
    }
}
