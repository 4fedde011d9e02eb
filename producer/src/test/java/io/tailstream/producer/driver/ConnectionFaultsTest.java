package io.tailstream.producer.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's lines about lost connections: one per second at most, with the cause, the target and the plan. */
class ConnectionFaultsTest {

    static final String URL = "jdbc:mariadb://127.0.0.1:3306/sbtest";
    static final long SECOND = 1_000_000_000L;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ConnectionFaults faults = new ConnectionFaults(URL, new PrintStream(out, true, StandardCharsets.UTF_8),
            false);

    static SQLException reset() {
        return new SQLNonTransientConnectionException("Socket error", "08000", -1,
                new SocketException("Connection reset"));
    }

    List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void oneWorker_lost_oneLineWithCauseTargetAndNextAttempt() {
        faults.lost(3, reset(), 0);
        faults.flush(SECOND, false);
        assertThat(lines()).containsExactly("worker 3: connection lost to " + URL + " (SQLState 08000,"
                + " vendor code -1: Socket error (caused by SocketException: Connection reset)); reconnecting"
                + " (attempt 1)");
    }

    @Test
    void manyWorkers_atOnce_oneLinePerSecond_withCounts() {
        for (int w = 0; w < 8; w++) {
            faults.lost(w, reset(), 0);
        }
        faults.flush(0, false);
        for (int w = 0; w < 8; w++) {
            faults.attemptFailed(w, 1, 10_000_000L, reset());
        }
        for (int w = 0; w < 5; w++) {
            faults.attemptFailed(w, 2, 20_000_000L, reset());
        }
        // within the second of the last line: nothing
        faults.flush(SECOND / 2, false);
        assertThat(lines()).hasSize(1);
        faults.flush(SECOND, false);
        for (int w = 0; w < 8; w++) {
            faults.reconnected(w, 3, 2 * SECOND / 10);
        }
        faults.flush(SECOND + SECOND / 10, false);
        assertThat(lines()).hasSize(2);
        faults.flush(2 * SECOND, false);
        // the final flush of a step prints what is left at once
        faults.lost(2, reset(), 0);
        faults.flush(2 * SECOND + 1, true);
        assertThat(lines()).containsExactly(
                "8 workers: connection lost to " + URL + " (SQLState 08000, vendor code -1: Socket error (caused by"
                        + " SocketException: Connection reset)); reconnecting (attempt 1)",
                "8 workers: cannot connect to " + URL + " (SQLState 08000, vendor code -1: Socket error (caused by"
                        + " SocketException: Connection reset)); reconnecting (attempt 3, backoff 20 ms)",
                "8 workers reconnected to " + URL + " after 0.2 s (3 attempts)",
                "worker 2: connection lost to " + URL + " (SQLState 08000, vendor code -1: Socket error (caused by"
                        + " SocketException: Connection reset)); reconnecting (attempt 1)");
    }

    @Test
    void workerBackInTheSameSecond_isCountedAsLostAndAsReconnected() {
        faults.lost(0, reset(), 0);
        faults.lost(1, reset(), 0);
        faults.reconnected(0, 1, SECOND / 100);
        faults.flush(SECOND, false);
        assertThat(lines()).singleElement().asString()
                .startsWith("2 workers: connection lost to " + URL)
                .endsWith("; worker 0 reconnected to " + URL + " after 0.0 s (1 attempt)");
    }

    @Test
    void causeQuotingAUrlWithAPassword_isMasked() {
        faults.attemptFailed(0, 1, 10_000_000L, new SQLException("Could not connect to jdbc:mariadb://u:s3cret@db:3306/x"
                + "?password=s3cret", "08000"));
        faults.flush(SECOND, false);
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("s3cret").contains("****");
    }

    @Test
    void debug_printsTheCausesStackTraceAfterTheLine() {
        ByteArrayOutputStream debugOut = new ByteArrayOutputStream();
        ConnectionFaults debug = new ConnectionFaults(URL, new PrintStream(debugOut, true, StandardCharsets.UTF_8),
                true);
        debug.lost(1, reset(), 0);
        debug.flush(SECOND, false);
        assertThat(debugOut.toString(StandardCharsets.UTF_8)).startsWith("worker 1: connection lost to " + URL)
                .contains("java.sql.SQLNonTransientConnectionException: Socket error").contains("\tat ")
                .contains("Caused by: java.net.SocketException: Connection reset");
        // without it, the line alone
        faults.lost(1, reset(), 0);
        faults.flush(SECOND, false);
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("\tat ").hasLineCount(1);
    }

    @Test
    void nothingHappened_noLine() {
        faults.flush(SECOND, true);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
