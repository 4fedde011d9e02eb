package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A run that does not reach its end keeps everything it measured: the steps before a failure, or before Ctrl-C, are
 * aggregated, archived and reported through the whole local pipeline, the failed or interrupted step is marked with
 * its reason in the archive, and the exit code says how the run ended. A target that cannot be reached is found
 * before anything starts.
 */
class RunFailuresIntegrationTest {

    @TempDir
    Path dir;

    /**
     * Steps 1 and 2 read the one prepared table; step 3's workload needs a second table that was never created, so
     * its workers cannot prepare their statements: a failure that is not an ignored error class.
     */
    @Test
    void thirdStepFails_stepsBeforeItAreArchivedAndReported_exitOne() throws Exception {
        String url = "jdbc:h2:mem:failing-third-step;DB_CLOSE_DELAY=-1";
        Outcome prepared = execute("prepare", "--url", url, "--user", "sa", "--workload", "oltp_point_select",
                "--tables", "1", "--table-size", "200");
        assertThat(prepared.exitCode()).as(prepared.err()).isZero();
        Path plan = dir.resolve("plan.yaml");
        Files.writeString(plan, """
                name: third-step-fails
                targets:
                  - name: h2
                    url: "%s"
                    user: sa
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 200}
                  - name: oltp_point_select
                    options: {tables: 2, table_size: 200}
                threads: [2]
                rounds: 2
                warmup: 200ms
                duration: 700ms
                prepare: false
                """.formatted(url));
        Path out = dir.resolve("out");
        Outcome o = execute("run", "--plan", plan.toString(), "--out", out.toString(), "--run-id", "fail-3");

        assertThat(o.exitCode()).as(o.out() + o.err()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("run fail-3 failed: ").contains("oltp_point_select")
                .contains("the 2 step(s) before it are archived and reported");
        assertThat(Files.size(out.resolve("report.html"))).isPositive();
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
            List<String> outcomes = strings(db, "SELECT step_id || ' ' || outcome FROM steps ORDER BY step_id");
            // the run stops at the first step that fails: no fourth step
            assertThat(outcomes).hasSize(3);
            assertThat(outcomes.subList(0, 2)).containsExactly("1 completed", "2 completed");
            assertThat(outcomes.get(2)).startsWith("3 failed: ");
            assertThat(strings(db, "SELECT outcome FROM runs")).singleElement().asString()
                    .startsWith("failed: ");
            // conservation: every sample the producer had acknowledged is archived, each once
            long sent = longValue(db, "SELECT sum(samples_sent) FROM steps");
            assertThat(sent).isPositive();
            assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
            assertThat(longValue(db, "SELECT count(*) FROM samples WHERE step_id = 3")).isZero();
            assertThat(longValue(db, "SELECT count(*) - count(DISTINCT (producer_id, block_seq)) FROM blocks"))
                    .isZero();
        }
    }

    /**
     * A wrong password on the second target (the value of {@code HOME}, which every environment has) is reported
     * before the broker starts: nothing is measured (the first target's steps would be lost time) and nothing is
     * created, the message names the target and the cause, and carries no password.
     */
    @Test
    void wrongPasswordOnTheSecondTarget_isReportedBeforeAnythingStarts() throws Exception {
        MySqlTestServer server = MySqlTestServer.require();
        Path plan = dir.resolve("plan.yaml");
        Files.writeString(plan, """
                name: wrong-password
                targets:
                  - name: h2
                    url: "jdbc:h2:mem:wrong-password-first;DB_CLOSE_DELAY=-1"
                    user: sa
                  - name: mariadb-wrong
                    url: "%s"
                    user: %s
                    passwordEnv: HOME
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 100}
                threads: [1]
                warmup: 0s
                duration: 1s
                prepare: true
                """.formatted(server.url(), server.user()));
        Path out = dir.resolve("never");
        long started = System.nanoTime();
        Outcome o = execute("run", "--plan", plan.toString(), "--out", out.toString());

        assertThat(o.exitCode()).as(o.out() + o.err()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("cannot start run").contains("mariadb-wrong").contains("Access denied");
        assertThat(o.out()).doesNotContain("starting the Kafka broker");
        assertThat(out).doesNotExist();
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("seconds to fail").isLessThan(30);
        assertThat(o.out() + o.err()).doesNotContain(System.getenv("HOME") + "@");
    }

    record Outcome(int exitCode, String out, String err) {}

    /** Runs the command in this JVM; the console (System.out) and picocli's error stream are captured. */
    static Outcome execute(String... args) {
        CommandLine cl = Cli.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        try (ConsoleCapture console = ConsoleCapture.stdout()) {
            int code = cl.execute(args);
            return new Outcome(code, console.text(), err.toString());
        }
    }

    private static List<String> strings(ArchiveDatabase db, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
