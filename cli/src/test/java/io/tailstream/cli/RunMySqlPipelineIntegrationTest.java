package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream prepare / run / cleanup} against a real MySQL-compatible server (the local MariaDB in CI),
 * through the whole local pipeline. The password travels only through the environment variable named by
 * {@code --password-env} and must appear nowhere in the console (stdout and stderr), in any row of the archive or
 * in the report.
 */
class RunMySqlPipelineIntegrationTest {

    @TempDir
    Path out;

    @Test
    void prepareRunCleanup_throughTheLocalPipeline_leakNoPassword() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        String[] target = PasswordEnvTarget.options(server, "oltp_point_select,oltp_read_write", 2, 1000);
        String console = capture(() -> assertThat(Cli.commandLine().execute(PasswordEnvTarget.args("prepare",
                target))).isZero());
        console += capture(() -> assertThat(Cli.commandLine().execute(PasswordEnvTarget.args("run", target,
                new String[] {"--threads", "4", "--warmup", "1s", "--duration", "2s", "--report-interval", "1",
                        "--out", out.toString(), "--target-name", "mariadb-local"}))).isZero());
        console += capture(() -> assertThat(Cli.commandLine().execute(PasswordEnvTarget.args("cleanup", target)))
                .isZero());

        assertThat(console).containsPattern("samples: [\\d,]+ sent = [\\d,]+ aggregated = [\\d,]+ archived");
        // its own broker runs beside the load at the lowest priority: on a machine kept busy by other work it may
        // answer late, and then what went through the spool is replayed, every bit of it
        if (console.contains("WARN spool")) {
            assertThat(console).containsPattern("went through .* while Kafka was slow or away.*; all replayed");
        }
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"));
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), min(target), min(product) FROM steps")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.getString(2)).isEqualTo("mariadb-local");
            assertThat(rs.getString(3)).isNotBlank();
        }
        String password = server.password();
        // a password that is also an ordinary word of the output (e.g. "tailstream") cannot be searched for
        assertThat(password != null && password.length() >= 6 && !"tailstream report".contains(password)
                && !server.url().contains(password) && !server.user().contains(password))
                .as("the test user's password must be distinctive (6+ characters, not a word of the output, the URL"
                        + " or the user name) for the leak check to mean anything")
                .isTrue();
        assertThat(console).doesNotContain(password);
        assertThat(Files.readString(out.resolve("report.html"))).doesNotContain(password);
        // every row of every dataset as text, nested maps and lists included (Parquet pages are compressed, so
        // the files' bytes cannot be searched)
        long rowsSearched = 0;
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"));
             Statement st = db.connection().createStatement()) {
            for (String view : db.views()) {
                try (ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE contains(t::VARCHAR, '"
                        + password.replace("'", "''") + "')) FROM " + view + " t")) {
                    rs.next();
                    rowsSearched += rs.getLong(1);
                    assertThat(rs.getLong(2)).as("rows of %s holding the password", view).isZero();
                }
            }
        }
        assertThat(rowsSearched).as("archive rows searched").isGreaterThan(1000);
    }

    /** Runs {@code r} and returns what it printed on stdout and stderr (also passed through). */
    private static String capture(Runnable r) {
        String s;
        try (ConsoleCapture console = ConsoleCapture.stdoutAndStderr()) {
            r.run();
            s = console.text();
        }
        System.out.print(s);
        return s;
    }
}
