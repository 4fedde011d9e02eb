package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.SocketTimeoutException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Opening a target whose server accepts the connection and does not answer: each first connection times out after
 * {@link TargetConnections#CONNECTION_TIMEOUT_MS} and is tried again until the patience is spent, then the error says
 * how many attempts timed out. A refused connection is not retried. No database: a silent socket.
 */
class TargetConnectionsTimeoutTest {

    @Test
    void silentServer_retriedUntilPatienceSpent_thenNamesTheAttempts() throws Exception {
        try (SilentServer server = SilentServer.silent()) {
            Target target = Target.of("busy", "jdbc:mariadb://127.0.0.1:" + server.port() + "/db", "u", () -> "pw1");
            assertThatThrownBy(() -> TargetConnections.open(target, 1, Duration.ofSeconds(5)))
                    .isInstanceOf(TargetException.class)
                    .hasMessageStartingWith("cannot connect to target 'busy' (jdbc:mariadb://127.0.0.1:" + server.port())
                    .hasMessageMatching("(?s).* \\([2-9] attempts in 5 s timed out\\)");
            // about 3 s per attempt: the first and one after it
            assertThat(server.accepted()).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void refusedConnection_failsAtOnce() throws Exception {
        int port;
        try (SilentServer server = SilentServer.silent()) {
            port = server.port();
        }
        Target target = Target.of("gone", "jdbc:mariadb://127.0.0.1:" + port + "/db", "u", () -> "pw1");
        assertThatThrownBy(() -> TargetConnections.open(target, 1, Duration.ofMinutes(10)))
                .isInstanceOf(TargetException.class)
                .hasMessageStartingWith("cannot connect to target 'gone'")
                .hasMessageNotContaining("timed out)");
    }

    @Test
    void timedOut_anywhereInTheCauses() {
        assertThat(SqlErrors.timedOut(new SQLNonTransientConnectionException("Socket timout error",
                "08000", new SocketTimeoutException("Read timed out")))).isTrue();
        assertThat(SqlErrors.timedOut(new RuntimeException(new SQLTimeoutException("login")))).isTrue();
        assertThat(SqlErrors.timedOut(new SQLNonTransientConnectionException("Access denied", "28000"))).isFalse();
        assertThat(SqlErrors.timedOut(new java.net.ConnectException("Connection refused"))).isFalse();
    }
}
