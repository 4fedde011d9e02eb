package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-C from two producer processes sharing one run against the local MariaDB: 2 warehouses, 2 threads, so each
 * producer drives the terminal of its own warehouse. Every committed New-Order and Payment the database holds is an
 * archived sample and the other way round, the step's consistency is checked once, and the transactions' inputs
 * come in the specification's distributions: remote order lines 1%, remote payments 15%, customers by last name 60%,
 * 5 to 15 order lines uniformly. Shares are checked within five binomial standard deviations (a chance failure once
 * in about 1.7 million runs per share).
 */
class SharedRunTpccIntegrationTest {

    private static final String RUN = "shared-tpcc";
    private static final int PRODUCERS = 2;
    private static final int TRANSACTIONS = 4000;
    private static final int LOADED_ORDERS_PER_WAREHOUSE = 30_000;

    @TempDir
    Path dir;

    @Test
    void twoProducers_eachDriveTheirWarehouse_andTheDatabaseAgreesWithTheArchive() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        String[] target = {"--url", server.url(), "--user", server.user(), "--password-env",
                PasswordEnvTarget.PASSWORD_ENV, "--workload", "tpcc", "--warehouses", "2"};
        assertThat(Cli.commandLine().execute(PasswordEnvTarget.args("prepare", target))).isZero();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(2));
            try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults(),
                    dir.resolve("state"))) {
                List<Process> producers = new ArrayList<>();
                try {
                    for (int i = 0; i < PRODUCERS; i++) {
                        producers.add(start(bootstrap, target, i));
                    }
                    ProducerProcesses.awaitAll(dir, producers);
                } finally {
                    producers.forEach(Process::destroyForcibly);
                }
                long sent = 0;
                for (int i = 0; i < PRODUCERS; i++) {
                    JsonNode json = Json.read(Files.readString(dir.resolve("out-" + i + ".json")).trim(),
                            JsonNode.class);
                    assertThat(json.get("steps")).hasSize(1);
                    assertThat(json.get("steps").get(0).get("threads").asInt()).as("threads of producer %d", i)
                            .isEqualTo(1);
                    sent += json.get("steps").get(0).get("samplesSent").asLong();
                }
                try (AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
                    progress.awaitCounts(RUN, Map.of(1, sent), Duration.ofSeconds(120));
                }
                assertThat(Cli.commandLine().execute("archive", "--bootstrap-servers", bootstrap, "--archive",
                        dir.resolve("archive").toString(), "--until-caught-up")).isZero();
                assertThat(Cli.commandLine().execute("report", "--archive", dir.resolve("archive").toString(),
                        "--out", dir.resolve("report.html").toString())).isZero();
                try (ArchiveDatabase archive = ArchiveDatabase.open(dir.resolve("archive"));
                     Connection db = DriverManager.getConnection(server.url(), server.user(), server.password())) {
                    assertThat(longValue(archive, "SELECT count(*) FROM samples")).isEqualTo(sent);
                    assertThat(longValue(archive, "SELECT count(*) FROM samples WHERE NOT warmup"))
                            .isEqualTo(TRANSACTIONS);
                    checkSplit(archive, db);
                    checkDistributions(archive, db);
                    checkConsistencyAndReport(archive);
                }
            }
        } finally {
            Cli.commandLine().execute(PasswordEnvTarget.args("cleanup", target));
        }
    }

    /** Each producer's terminal worked in its own warehouse, and the database holds exactly what was archived. */
    private void checkSplit(ArchiveDatabase archive, Connection db) throws SQLException {
        assertThat(longValue(archive, "SELECT count(DISTINCT producer_id) FROM samples")).isEqualTo(PRODUCERS);
        for (int w = 1; w <= 2; w++) {
            assertThat(one(db, "SELECT count(*) FROM orders WHERE o_w_id = " + w + " AND o_id > 3000"))
                    .as("New-Orders of warehouse %d's terminal", w).isPositive();
        }
        // the orders of each warehouse come from one producer: its New-Orders, counted apart per producer
        List<Long> perProducer = longs(archive, "SELECT count(*) FROM samples WHERE op = 'new_order'"
                + " AND status = 'ok' GROUP BY producer_id ORDER BY 1");
        List<Long> perWarehouse = longs(db, "SELECT count(*) FROM orders WHERE o_id > 3000 GROUP BY o_w_id"
                + " ORDER BY 1");
        assertThat(perWarehouse).isEqualTo(perProducer);
        assertThat(one(db, "SELECT count(*) FROM history")).isEqualTo(2L * LOADED_ORDERS_PER_WAREHOUSE
                + longValue(archive, "SELECT count(*) FROM samples WHERE op = 'payment' AND status = 'ok'"));
    }

    /** The inputs the terminals drew, read back from the tables they changed and from each sample's statements. */
    private void checkDistributions(ArchiveDatabase archive, Connection db) throws SQLException {
        long lines = one(db, "SELECT count(*) FROM order_line WHERE ol_o_id > 3000");
        long remoteLines = one(db, "SELECT count(*) FROM order_line WHERE ol_supply_w_id <> ol_w_id");
        assertShare("remote order lines", remoteLines, lines, 0.01);
        long payments = one(db, "SELECT count(*) FROM history") - 2L * LOADED_ORDERS_PER_WAREHOUSE;
        long remotePayments = one(db, "SELECT count(*) FROM history WHERE h_c_w_id <> h_w_id");
        assertShare("remote payments", remotePayments, payments, 0.15);
        // a customer chosen by last name costs one statement more: Payment 10 statements instead of 9, Order-Status 6
        // instead of 5 (BEGIN and COMMIT included)
        assertThat(longs(archive, "SELECT DISTINCT queries FROM samples WHERE status = 'ok' AND op = 'payment'"
                + " ORDER BY 1")).containsExactly(9L, 10L);
        long byName = longValue(archive, "SELECT count(*) FROM samples WHERE status = 'ok'"
                + " AND (op = 'payment' AND queries = 10 OR op = 'order_status' AND queries = 6)");
        long chosen = longValue(archive, "SELECT count(*) FROM samples WHERE status = 'ok'"
                + " AND op IN ('payment', 'order_status')");
        assertShare("customers by last name", byName, chosen, 0.60);
        // a committed New-Order of n lines: BEGIN, 6 statements, 4 a line, COMMIT
        long newOrders = longValue(archive, "SELECT count(*) FROM samples WHERE status = 'ok' AND op = 'new_order'");
        assertThat(longValue(archive, "SELECT count(*) FROM samples WHERE status = 'ok' AND op = 'new_order'"
                + " AND (queries - 8) % 4 = 0 AND (queries - 8) / 4 BETWEEN 5 AND 15")).isEqualTo(newOrders);
        assertThat(lines).isEqualTo(longValue(archive, "SELECT sum((queries - 8) / 4) FROM samples"
                + " WHERE status = 'ok' AND op = 'new_order'"));
        for (int n = 5; n <= 15; n++) {
            assertShare(n + " order lines", longValue(archive, "SELECT count(*) FROM samples WHERE status = 'ok'"
                    + " AND op = 'new_order' AND queries = " + (8 + 4 * n)), newOrders, 1 / 11.0);
        }
    }

    private void checkConsistencyAndReport(ArchiveDatabase archive) throws Exception {
        // checked once for the step, by its first producer, and held
        assertThat(longValue(archive, "SELECT count(*) FROM control WHERE type = 'data_checked'")).isEqualTo(1);
        assertThat(longValue(archive, "SELECT count(*) FROM control WHERE type = 'data_checked'"
                + " AND json_extract(event, '$.checks[*].held')::VARCHAR LIKE '%false%'")).isZero();
        String html = Files.readString(dir.resolve("report.html"));
        assertThat(html).contains("data-key=\"consistency\" data-value=\"held\"");
        long completedNewOrders = longValue(archive, "SELECT count(*) FROM samples WHERE NOT warmup"
                + " AND status = 'ok' AND op IN ('new_order', 'new_order_rollback')");
        long spanUs = longValue(archive, "SELECT sum(measure_end_us - measure_start_us) FROM steps");
        Matcher tpmC = Pattern.compile("data-key=\"tpmc\" data-value=\"([^\"]+)\"").matcher(html);
        assertThat(tpmC.find()).as("the report's TPC-C table").isTrue();
        assertThat(Double.parseDouble(tpmC.group(1))).isCloseTo(completedNewOrders * 60e6 / spanUs,
                Offset.offset(1e-6));
    }

    /** {@code k} of {@code n} within five binomial standard deviations of share {@code p}. */
    private static void assertShare(String what, long k, long n, double p) {
        assertThat(n).as(what + ": drawn").isGreaterThan(300);
        assertThat((double) k).as("%s: %d of %d", what, k, n).isCloseTo(p * n,
                Offset.offset(5 * Math.sqrt(n * p * (1 - p))));
    }

    private Process start(String bootstrap, String[] target, int i) throws Exception {
        return ProducerProcesses.start(dir, i, PasswordEnvTarget.args("run", new String[] {"--bootstrap-servers",
                bootstrap, "--run-id", RUN, "--producers", String.valueOf(PRODUCERS), "--join-timeout", "120s",
                "--threads", "2", "--warmup", "1s", "--duration", "10m", "--transactions",
                String.valueOf(TRANSACTIONS), "--report-interval", "0", "--json", "--spool-dir",
                dir.resolve("spool-" + i).toString()}, target));
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<Long> longs(Connection c, String sql) throws SQLException {
        List<Long> values = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
        }
        return values;
    }

    private static List<Long> longs(ArchiveDatabase archive, String sql) throws SQLException {
        return longs(archive.connection(), sql);
    }
}
