package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict's fairness checks on real servers with their defaults: a comparison the products' settings make
 * unfair gets no verdict, for that reason alone.
 */
class FairnessChecksIntegrationTest {

    @TempDir
    Path dir;

    /**
     * Fairness across products on the real servers, each check alone (the machine-dependent checks waived): MariaDB
     * against PostgreSQL with their defaults have the same commit durability but not the same isolation (REPEATABLE
     * READ against READ COMMITTED), so every comparison is "no verdict" for isolation and for nothing else;
     * PostgreSQL against in-memory H2 have the same isolation but not the same durability, so "no verdict" for
     * durability and nothing else.
     */
    @Test
    void realServers_isolationDiffers_durabilityDiffers_noVerdictForThatReasonAlone() throws Exception {
        MySqlTestServer mysql = PasswordEnvTarget.require();
        PostgreSqlTestServer postgresql = PostgreSqlTestServer.require();
        String pg = """
                  - name: postgresql
                    url: "%s"
                    user: %s
                """.formatted(postgresql.url(), postgresql.user());
        String mariadb = """
                  - name: mariadb
                    url: "%s"
                    user: %s
                    passwordEnv: TAILSTREAM_MYSQL_PASSWORD
                """.formatted(mysql.url(), mysql.user());
        String h2 = """
                  - name: h2-mem
                    url: "jdbc:h2:mem:fairness-h2;DB_CLOSE_DELAY=-1"
                    user: sa
                """;
        assertThat(failedChecks("iso", mariadb + pg)).as("MariaDB defaults against PostgreSQL defaults")
                .containsOnly("isolation");
        assertThat(failedChecks("dur", pg + h2)).as("PostgreSQL defaults against in-memory H2")
                .containsOnly("durability");
    }

    /** Runs a short plan of two targets and returns the checks the report's verdicts name as failed. */
    private List<String> failedChecks(String name, String targets) throws Exception {
        Path plan = dir.resolve(name + ".yaml");
        Files.writeString(plan, """
                name: fairness-%s
                targets:
                %s
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 200}
                threads: [2]
                rounds: 2
                warmup: 300ms
                duration: 700ms
                reportInterval: 0
                prepare: true
                accept: [clientBound, warmup, errors, rtt]
                """.formatted(name, targets.stripTrailing()));
        Path out = dir.resolve(name);
        RunFailuresIntegrationTest.Outcome run = RunFailuresIntegrationTest.execute("run", "--plan", plan.toString(),
                "--out", out.toString(), "--run-id", name, "--quiet");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        Path json = dir.resolve(name + ".json");
        CliUsageTest.Outcome report = CliUsageTest.execute("report", "--archive", out.resolve("archive").toString(),
                "--format", "json", "--out", json.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        List<String> checks = new ArrayList<>();
        for (JsonNode v : doc.get("verdicts")) {
            if (v.get("metric").asText().equals("cost")) {
                continue; // no costs in this plan: not a comparison
            }
            assertThat(v.get("status").asText()).as(v.toString()).isEqualTo("none");
            v.get("reasons").forEach(r -> checks.add(r.get("check").asText()));
        }
        assertThat(checks).isNotEmpty();
        return checks;
    }
}
