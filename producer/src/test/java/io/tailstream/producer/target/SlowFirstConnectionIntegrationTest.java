package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A real MariaDB behind a server that is silent on the first connection (as a server too busy to answer at once):
 * opening the target times that connection out, tries again and gets a working pool, with either driver.
 */
class SlowFirstConnectionIntegrationTest {

    @Test
    void firstConnectionTimesOut_openTriesAgain_poolWorks() throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        URI real = URI.create(server.url("mariadb").substring("jdbc:".length()));
        for (String scheme : new String[] {"mariadb", "mysql"}) {
            try (SilentServer slow = SilentServer.silentThenForwarding(1, real.getHost(), real.getPort())) {
                String url = server.url(scheme).replaceFirst("//[^/]+/", "//127.0.0.1:" + slow.port() + "/");
                Target target = Target.of("slow-" + scheme, url, server.user(), server::password);
                try (TargetConnections connections = TargetConnections.open(target, 2);
                     Connection c = connections.dataSource().getConnection();
                     Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT 1 + 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(2);
                }
                // the silent one, then the pool's connections through the forwarder
                assertThat(slow.accepted()).as(scheme).isGreaterThanOrEqualTo(2);
            }
        }
    }
}
