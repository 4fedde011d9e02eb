package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.PrivateDatabase;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream run} through the local pipeline against a database server of the test's own, stopped mid-step
 * once the interval lines show transactions: started again, the workers reconnect, the step completes and the outage
 * is a hard stall (windows with nothing completed) in the archive; never started again, the run ends once no worker
 * had a connection for the plan's reconnect timeout, naming the target and the cause, with everything measured
 * before it archived and reported. Either way every sample sent is archived. One subclass per server.
 */
abstract class DatabaseRestartContract {

    static final int THREADS = 4;

    @TempDir
    Path dir;

    /** Starts the server, or aborts the test saying why it cannot. */
    abstract PrivateDatabase startDatabase();

    @Test
    void stoppedAndStartedMidStep_workersReconnect_outageIsAHardStall() throws Exception {
        try (PrivateDatabase server = startDatabase()) {
            // the stop, a whole window down, the start and the workers' reconnects all fall within the step: a
            // budget no restart on a loaded machine exceeds
            BackgroundRun r = runningStep(server, "40s", "60s", "restart-1");
            server.stop();
            // down across one whole 1 s window, whatever the machine's speed
            long wholeWindowEnd = (System.currentTimeMillis() / 1000 + 2) * 1000;
            r.await(() -> System.currentTimeMillis() >= wholeWindowEnd
                    && r.console().contains("cannot connect to " + server.url()), "reconnect attempts");
            server.startAgain();
            int code = r.finish(300);
            String text = r.text();

            assertThat(code).as(text).isZero();
            assertThat(text).contains("connection lost to " + server.url()).contains("reconnected to " + server.url())
                    .doesNotContain("\tat ");
            try (ArchiveDatabase db = ArchiveDatabase.open(r.out().resolve("archive"))) {
                assertThat(strings(db, "SELECT outcome FROM steps")).isEqualTo("completed");
                long sent = longValue(db, "SELECT sum(samples_sent) FROM steps");
                assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
                long lost = longValue(db, "SELECT count(*) FROM samples WHERE status = 'connection_lost'");
                // one failed transaction per worker when the server went; nothing while it was away
                assertThat(lost).isBetween((long) THREADS, 2L * THREADS);
                assertThat(longValue(db, "SELECT sum(errors) FROM steps")).isEqualTo(lost);
                assertThat(longValue(db, "SELECT sum(reconnects) FROM steps")).isGreaterThanOrEqualTo(THREADS);
                // successes after the outage
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE status = 'ok' AND start_us >"
                        + " (SELECT max(start_us) FROM samples WHERE status = 'connection_lost')")).isPositive();
                // the windows show the gap: measured windows with nothing completed, between ones with work
                assertThat(longValue(db, "SELECT count(*) FROM windows w WHERE op = '*' AND tps = 0"
                        + " AND window_start_ms > (SELECT min(window_start_ms) FROM windows WHERE op = '*' AND tps > 0)"
                        + " AND window_start_ms < (SELECT max(window_start_ms) FROM windows WHERE op = '*'"
                        + " AND tps > 0)"))
                        .isPositive();
                assertThat(longValue(db, "SELECT count(*) FROM stalls WHERE kind = 'hard'")).isPositive();
            }
        }
    }

    @Test
    void stoppedForGood_runEndsNamingTargetAndCause_everythingMeasuredIsArchivedAndReported() throws Exception {
        try (PrivateDatabase server = startDatabase()) {
            BackgroundRun r = runningStep(server, "120s", "3s", "gone-1");
            server.stop();
            int code = r.finish(300);
            String text = r.text();

            assertThat(code).as(text).isEqualTo(Cli.EXIT_FAILURE);
            assertThat(text).contains("run gone-1 failed: ").contains("target 'private' unreachable: ")
                    .contains("cannot connect to " + server.url()).doesNotContain("\tat ");
            assertThat(Files.size(r.out().resolve("report.html"))).isPositive();
            try (ArchiveDatabase db = ArchiveDatabase.open(r.out().resolve("archive"))) {
                assertThat(strings(db, "SELECT outcome FROM steps")).startsWith("failed: target 'private'"
                        + " unreachable: ").endsWith("(no worker had a connection for 3 s)");
                assertThat(strings(db, "SELECT outcome FROM runs")).startsWith("failed: ");
                long sent = longValue(db, "SELECT sum(samples_sent) FROM steps");
                assertThat(sent).isPositive();
                assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE status = 'connection_lost'"))
                        .isEqualTo(longValue(db, "SELECT sum(errors) FROM steps"));
            }
        }
    }

    /** Starts the run's one step against {@code server} and returns once its interval lines show transactions. */
    private BackgroundRun runningStep(PrivateDatabase server, String duration, String reconnectTimeout, String runId)
            throws Exception {
        Path plan = dir.resolve(runId + ".yaml");
        Files.writeString(plan, """
                name: %s
                targets:
                  - name: private
                    url: "%s"
                    user: %s
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 1000}
                threads: [%d]
                warmup: 0s
                duration: %s
                reconnectTimeout: %s
                reportInterval: 1
                prepare: true
                ignoreErrors: [deadlock, lock_wait_timeout, connection_lost]
                """.formatted(runId, server.url(), server.user(), THREADS, duration,
                reconnectTimeout));
        BackgroundRun run = BackgroundRun.start(plan, dir.resolve(runId), runId);
        run.awaitTransactions(THREADS);
        return run;
    }

    private static String strings(ArchiveDatabase db, String sql) throws SQLException {
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            String s = rs.getString(1);
            assertThat(rs.next()).as("one row").isFalse();
            return s;
        }
    }
}
