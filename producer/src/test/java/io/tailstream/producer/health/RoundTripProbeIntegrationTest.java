package io.tailstream.producer.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TestTargets;
import io.tailstream.schemas.event.RttProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The round-trip probe against the local MariaDB (both drivers), PostgreSQL and H2: the same method for every
 * product, checked through the driver (the statement really is prepared on the server), with its samples. Medians
 * are not compared: the machine is shared, and the method's properties are what make the figures comparable.
 */
class RoundTripProbeIntegrationTest {

    static void check(Target target, String how) throws Exception {
        try (TargetConnections tc = TargetConnections.open(target, 1)) {
            RttProbe p = new RoundTripProbe(tc.dataSource(), tc.dialect()).measure();
            assertThat(p.samples()).isBetween(1, RoundTripProbe.TIMED);
            assertThat(p.method()).isEqualTo("SELECT 1 " + how + ", dedicated idle connection, 20 discarded, "
                    + p.samples() + " timed back to back");
            assertThat(p.minMicros()).isPositive().isLessThanOrEqualTo(p.p50Micros());
            assertThat(p.p50Micros()).isLessThanOrEqualTo(p.p99Micros());
            assertThat(p.p99Micros()).isLessThanOrEqualTo(p.maxMicros());
            assertThat(new RoundTripProbe(tc.dataSource(), tc.dialect()).once()).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mysql", "mariadb"})
    void mariadb_preparedOnTheServer_throughEitherDriver(String scheme) throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        check(Target.of("maria-" + scheme, server.url(scheme), server.user(), server::password),
                "prepared on the server");
        // the URL may turn server-side statements off: the probe then says so
        String clientSide = server.url(scheme) + (server.url(scheme).contains("?") ? "&" : "?")
                + "useServerPrepStmts=false";
        check(Target.of("maria-client-" + scheme, clientSide, server.user(), server::password),
                "prepared on the client (the URL turns server-side statements off)");
    }

    @Test
    void postgresql_namedServerStatementFromTheFirstExecution() throws Exception {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        check(TestTargets.postgresql(server), "prepared on the server");
        try (TargetConnections tc = TargetConnections.open(TestTargets.postgresql(server), 1);
             Connection c = tc.dataSource().getConnection();
             PreparedStatement plain = c.prepareStatement("SELECT 1");
             PreparedStatement probe = tc.dialect().prepareOnServer(c, "SELECT 1")) {
            // pgJDBC's default threshold (5) would send the probe's first four executions unprepared
            assertThat(tc.dialect().serverPrepared(plain)).isFalse();
            assertThat(tc.dialect().serverPrepared(probe)).isTrue();
        }
    }

    @Test
    void h2_inProcess() throws Exception {
        check(Target.h2InMemory("h2", "rtt"), "compiled in process (embedded, no network)");
    }
}
