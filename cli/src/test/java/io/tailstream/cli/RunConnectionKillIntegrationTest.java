package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream run} through the local pipeline while the MariaDB server kills the benchmark's connections
 * ({@code KILL CONNECTION} from an admin connection, once the interval lines show transactions): with
 * {@code connection_lost} ignored the workers reconnect and the step completes; the console says so in a few lines,
 * each naming the target without credentials, with no stack trace (the pool's warnings summarized); every sample
 * sent is archived.
 */
class RunConnectionKillIntegrationTest {

    static final int THREADS = 4;

    @TempDir
    Path dir;

    @Test
    void killedConnections_fewConsoleLines_noStackTrace_workersReconnect_everySampleArchived() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        Path plan = dir.resolve("plan.yaml");
        Files.writeString(plan, """
                name: killed
                targets:
                  - name: mariadb-local
                    url: "%s"
                    user: %s
                    passwordEnv: TAILSTREAM_MYSQL_PASSWORD
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 1000}
                threads: [%d]
                warmup: 0s
                duration: 6s
                reportInterval: 1
                prepare: true
                ignoreErrors: [deadlock, lock_wait_timeout, connection_lost]
                """.formatted(server.url("mariadb"), server.user(), THREADS));
        Path out = dir.resolve("out");
        int code;
        int killed;
        String text;
        try (BackgroundRun run = BackgroundRun.start(plan, out, "killed-1")) {
            // the kill comes once transactions are seen in an interval line, whatever the machine's speed
            run.awaitTransactions(THREADS);
            killed = server.killConnectionsOfTheDatabase();
            code = run.finish(180);
            text = run.text();
        }

        assertThat(killed).isGreaterThanOrEqualTo(THREADS);
        assertThat(code).as(text).isZero();
        String url = server.url("mariadb");
        assertThat(text).containsPattern("(worker \\d|\\d workers): connection lost to \\Q" + url + "\\E \\(")
                .containsPattern("reconnected to \\Q" + url + "\\E after ").doesNotContain("\tat ")
                .doesNotContain("Exception:\n");
        assertThat(text.lines().filter(l -> l.contains(url))).hasSizeBetween(1, 2 * THREADS);
        // the pool's warnings: a first line and a count, not one per connection
        assertThat(text.lines().filter(l -> l.contains("WARN connection pool: "))).hasSizeBetween(1, 4);
        assertThat(text.lines().count()).as(text).isLessThan(40);
        String password = server.password();
        if (password != null && password.length() >= 6 && !url.contains(password)) {
            assertThat(text).doesNotContain(password);
        }
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
            long sent = longValue(db, "SELECT sum(samples_sent) FROM steps");
            assertThat(sent).isPositive();
            assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
            long lost = longValue(db, "SELECT count(*) FROM samples WHERE status = 'connection_lost'");
            // a killed connection fails at most one transaction
            assertThat(lost).isBetween(1L, (long) killed);
            assertThat(longValue(db, "SELECT sum(errors) FROM steps")).isEqualTo(lost);
            assertThat(longValue(db, "SELECT sum(reconnects) FROM steps")).isBetween(1L, (long) killed);
            assertThat(longValue(db, "SELECT count(*) FROM steps WHERE outcome = 'completed'")).isEqualTo(1);
        }
    }
}
