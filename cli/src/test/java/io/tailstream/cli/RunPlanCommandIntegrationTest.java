package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tailstream.infra.kafka.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --plan FILE --json --quiet --bootstrap-servers ...}: a plan file drives the whole evaluation, stdout
 * carries only the JSON document, and the console has no interval lines.
 */
class RunPlanCommandIntegrationTest {

    static EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void broker() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    @Test
    void planWithTwoTargetsAndASweep_printsOneJsonDocument_withClientBoundPerStep() throws Exception {
        Path plan = dir.resolve("eval.yaml");
        Files.writeString(plan, """
                name: h2-eval
                targets:
                  - name: h2-a
                    url: "jdbc:h2:mem:plan-a;DB_CLOSE_DELAY=-1"
                    user: sa
                    monthlyCost: 10
                    currency: USD
                  - name: h2-b
                    url: "jdbc:h2:mem:plan-b;DB_CLOSE_DELAY=-1"
                    user: sa
                workloads:
                  - name: oltp_point_select
                    options: {table_size: 500}
                threads: [1, 2]
                warmup: 0s
                duration: 500ms
                reportInterval: 1
                prepare: true
                """);
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int code;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            code = Cli.commandLine().execute("run", "--plan", plan.toString(), "--json", "--quiet",
                    "--bootstrap-servers", kafka.bootstrapServers(), "--run-id", "plan-run-1");
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        String err = stderr.toString(StandardCharsets.UTF_8);
        assertThat(code).as(err).isZero();
        JsonNode doc = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8));
        JsonNode steps = doc.get("steps");
        assertThat(steps).hasSize(4);
        String[] targets = {"h2-a", "h2-a", "h2-b", "h2-b"};
        int[] threads = {1, 2, 1, 2};
        for (int i = 0; i < 4; i++) {
            JsonNode s = steps.get(i);
            assertThat(s.get("target").asText()).isEqualTo(targets[i]);
            assertThat(s.get("threads").asInt()).isEqualTo(threads[i]);
            assertThat(s.get("round").asInt()).isEqualTo(1);
            assertThat(s.get("tps").asDouble()).isPositive();
            assertThat(s.get("qps").asDouble()).isEqualTo(s.get("tps").asDouble());
            assertThat(s.get("errors").asLong()).isZero();
            assertThat(s.get("clientBound").isBoolean()).isTrue();
            for (String key : new String[] {"workload", "avgMs", "p95Ms", "p99Ms"}) {
                assertThat(s.has(key)).as(key).isTrue();
            }
        }
        assertThat(err).doesNotContain("[ 1s ]").contains("run plan-run-1:");
    }

    /**
     * A target with a primary and a read-only endpoint (two in-memory H2 databases standing in for two nodes): the
     * read-only step's workers run on both, the writing step's on the primary only. H2's query statistics count the
     * point selects each database answered.
     */
    @Test
    void planWithEndpoints_spreadsReadOnlyStepsOverTheNodes_andWritesOnlyToThePrimary() throws Exception {
        String primary = "jdbc:h2:mem:ep-primary;DB_CLOSE_DELAY=-1;QUERY_STATISTICS=TRUE";
        String replica = "jdbc:h2:mem:ep-replica;DB_CLOSE_DELAY=-1;QUERY_STATISTICS=TRUE";
        // the "replica" gets the same data by its own prepare: H2 databases do not replicate
        assertThat(Cli.commandLine().execute("prepare", "--url", replica, "--user", "sa", "--workload",
                "oltp_point_select", "--table-size", "500")).isZero();
        Path plan = dir.resolve("nodes.yaml");
        Files.writeString(plan, """
                targets:
                  - name: h2-2nodes
                    endpoints:
                      primary: "%s"
                      readOnly: ["%s"]
                    user: sa
                workloads:
                  - name: oltp_point_select
                    options: {table_size: 500}
                  - name: oltp_update_non_index
                    options: {table_size: 500}
                threads: 4
                warmup: 0s
                duration: 700ms
                reportInterval: 0
                prepare: true
                """.formatted(primary, replica));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        int code;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            code = Cli.commandLine().execute("run", "--plan", plan.toString(), "--json", "--bootstrap-servers",
                    kafka.bootstrapServers(), "--run-id", "plan-endpoints-1");
        } finally {
            System.setOut(oldOut);
        }
        assertThat(code).isZero();
        JsonNode steps = new ObjectMapper().readTree(stdout.toString(StandardCharsets.UTF_8)).get("steps");
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).get("errors").asLong()).isZero();
        long selectsOnPrimary = executions(primary, "SELECT c FROM sbtest1 WHERE id=%");
        long selectsOnReplica = executions(replica, "SELECT c FROM sbtest1 WHERE id=%");
        // 4 workers round robin over 2 endpoints: 2 on each
        assertThat(selectsOnPrimary).isPositive();
        assertThat(selectsOnReplica).isPositive();
        assertThat(selectsOnPrimary + selectsOnReplica).isEqualTo(steps.get(0).get("transactions").asLong());
        assertThat(executions(primary, "UPDATE sbtest1 SET c=%")).isPositive();
        assertThat(executions(replica, "UPDATE sbtest1 SET c=%")).isZero();
    }

    /** Executions of the statements matching {@code like}, from H2's query statistics. */
    static long executions(String url, String like) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "sa", "");
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(EXECUTION_COUNT), 0) FROM"
                     + " INFORMATION_SCHEMA.QUERY_STATISTICS WHERE SQL_STATEMENT LIKE ?")) {
            ps.setString(1, like);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void planErrors_areUsageErrorsNamingFileLineAndField() throws Exception {
        Path plan = dir.resolve("bad.yaml");
        Files.writeString(plan, """
                targets:
                  - name: h2
                    url: "jdbc:h2:mem:x"
                    nodes: 0
                workloads:
                  - name: oltp_point_select
                """);
        CliUsageTest.Outcome o = CliUsageTest.execute("run", "--plan", plan.toString());
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(plan + ":4:12: targets[0].nodes: must be in 1..1000, was 0");
        CliUsageTest.Outcome mixed = CliUsageTest.execute("run", "--plan", plan.toString(), "--threads", "4");
        assertThat(mixed.err()).contains("--threads cannot be combined with --plan: set it in " + plan);
    }
}
