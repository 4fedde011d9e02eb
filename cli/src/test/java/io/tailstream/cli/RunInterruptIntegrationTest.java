package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.process.ChildJvm;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C keeps what was measured: {@code tailstream run} in a child JVM on embedded H2 gets SIGTERM (what Ctrl-C's
 * SIGINT does too: the JVM runs its shutdown hooks) in the middle of a two-minute step. The step stops at its
 * workers' next transaction and is marked interrupted, the samples sent until then are aggregated, archived and
 * reported, and the process exits with 128 + the signal's number.
 */
class RunInterruptIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void sigtermMidStep_archivesAndReportsWhatWasMeasured_andMarksTheStepInterrupted() throws Exception {
        Path out = dir.resolve("out");
        Process child = ChildJvm.of(Main.class).heap("512m").args("run", "--workload", "oltp_point_select",
                "--table-size", "1000", "--threads", "2", "--warmup", "1s", "--duration", "120s",
                "--report-interval", "1", "--out", out.toString(), "--run-id", "int-1").processBuilder()
                .redirectErrorStream(true).start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch measuring = new CountDownLatch(1);
        Thread reader = new Thread(() -> read(child, lines, measuring), "child-output");
        reader.start();
        try {
            // the second interval line: the workers are past their 1 s warm-up and measuring
            while (!measuring.await(200, TimeUnit.MILLISECONDS)) {
                assertThat(child.isAlive()).as("the child ran until its measurement: %s", lines).isTrue();
            }
            // SIGTERM through the handle: Process.destroy() would also close the pipe we read the output from
            assertThat(child.toHandle().destroy()).isTrue();
            assertThat(child.waitFor(180, TimeUnit.SECONDS)).as("the child exits after the signal: %s", lines)
                    .isTrue();
        } finally {
            child.destroyForcibly();
            reader.join(10_000);
        }
        String output = String.join("\n", lines);
        assertThat(child.exitValue()).as(output).isEqualTo(128 + 15);
        assertThat(output).contains("stopping: the running step ends at its next transaction");
        assertThat(Files.size(out.resolve("report.html"))).as(output).isPositive();
        try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"));
             Statement st = db.connection().createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*), min(outcome), sum(samples_sent) FROM steps")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getString(2)).startsWith("interrupted: ");
                long sent = rs.getLong(3);
                assertThat(sent).isPositive();
                try (Statement st2 = db.connection().createStatement();
                     ResultSet n = st2.executeQuery("SELECT count(*), count(*) FILTER (WHERE NOT warmup)"
                             + " FROM samples")) {
                    n.next();
                    assertThat(n.getLong(1)).as("samples archived = samples sent").isEqualTo(sent);
                    assertThat(n.getLong(2)).as("measured samples").isPositive();
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT outcome FROM runs")) {
                rs.next();
                assertThat(rs.getString(1)).startsWith("interrupted: ");
            }
        }
    }

    private static void read(Process child, List<String> lines, CountDownLatch measuring) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
                if (line.startsWith("[ 2s ]")) {
                    measuring.countDown();
                }
            }
        } catch (IOException e) {
            lines.add("(reading the child's output failed: " + e + ")");
        }
    }
}
