package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.ListTransport;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The same workload code against the local MariaDB (or any MySQL-compatible server) named by
 * {@code TAILSTREAM_MYSQL_URL}, {@code TAILSTREAM_MYSQL_USER}, {@code TAILSTREAM_MYSQL_PASSWORD}, or MySQL 8 in
 * Testcontainers where Docker exists; skipped with a message otherwise ({@link MySqlTestServer}). Through both
 * drivers the producer accepts for such targets: MySQL Connector/J ({@code jdbc:mysql:}) and MariaDB Connector/J
 * ({@code jdbc:mariadb:}).
 */
class MariaDbWorkloadIntegrationTest {

    static final Map<String, String> SMALL = Map.of("tables", "2", "table_size", "2000");
    static MySqlTestServer server;
    static String url;
    static String user;
    static String password;

    // per test, not @BeforeAll: an abort there hides the test and its reason from the Surefire report
    @BeforeEach
    void environment() {
        server = MySqlTestServer.require();
        url = server.url();
        user = server.user();
        password = server.password();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"mysql, MySQL Connector/J", "mariadb, MariaDB Connector/J"})
    void prepare_run_bothWorkloads_cleanup(String scheme, String driverName) throws SQLException {
        Target target = Target.of("mariadb-local", server.url(scheme), user, () -> password);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
        List<WorkloadSpec> workloads = List.of(new WorkloadSpec("oltp_read_write", SMALL),
                new WorkloadSpec("oltp_point_select", withExpectation(SMALL)));
        RunPlan plan = RunPlan.of("it-mariadb", "integration", List.of(target), workloads, List.of(4), 1,
                Duration.ZERO, Duration.ofMillis(2500), 1);
        ListTransport transport = new ListTransport(1);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink("it-mariadb", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        }
        assertThat(rowCount("sbtest1")).isEqualTo(2000);
        assertThat(rowCount("sbtest2")).isEqualTo(2000);

        StepResult rw = result.steps().get(0);
        StepResult ps = result.steps().get(1);
        assertThat(rw.transactions()).isPositive();
        assertThat(ps.transactions()).isGreaterThan(rw.transactions());
        // queries are the statements that succeeded: 20 per successful transaction, and of a failed one those
        // before the failing statement (0 to 19)
        assertThat(rw.queries()).isBetween(20 * rw.transactions(), 20 * rw.transactions() + 19 * rw.errors());
        assertThat(ps.queries()).isEqualTo(ps.transactions());
        assertThat(ps.errors()).isZero();
        assertThat(rw.samplesSent()).isEqualTo(rw.samplesRecorded());

        StepStarted started = transport.control().stream().map(b -> Json.read(b, ControlEvent.class))
                .filter(StepStarted.class::isInstance).map(StepStarted.class::cast).findFirst().orElseThrow();
        assertThat(started.target().product()).isIn("MariaDB", "MySQL");
        assertThat(started.target().variables().get("tailstream.jdbc_driver")).startsWith(driverName + " ");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("(driver: " + driverName + " ");
        assertThat(started.target().variables()).containsKeys("innodb_buffer_pool_size",
                "innodb_flush_log_at_trx_commit", "max_connections");
        assertThat(started.target().url()).doesNotContain(password == null ? "\u0000" : password + "@");
        // the data size is captured at every step; point_select expects more than the buffer pool holds, and its tiny
        // tables fit in it
        assertThat(started.target().variables()).containsKey("tailstream.data_bytes");
        assertThat(started.options()).doesNotContainKey("expect.dataLargerThanBufferPool");
        StepStarted expecting = transport.control().stream().map(b -> Json.read(b, ControlEvent.class))
                .filter(StepStarted.class::isInstance).map(StepStarted.class::cast)
                .filter(s -> s.workload().equals("oltp_point_select")).findFirst().orElseThrow();
        assertThat(expecting.options()).containsEntry("expect.dataLargerThanBufferPool", "true")
                .containsEntry("tables", "2");
        // InnoDB's sizes in information_schema are statistics, recalculated in the background once a tenth of a
        // table's rows changed (the read_write step changes more): the size now may differ by a few pages
        long dataBytes = Long.parseLong(expecting.target().variables().get("tailstream.data_bytes"));
        assertThat(dataBytes).isCloseTo(dataBytes("sbtest1", "sbtest2"), withinPercentage(10)).isPositive()
                .isLessThan(Long.parseLong(expecting.target().variables().get("innodb_buffer_pool_size")));
        System.out.print(out.toString(StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("thds: 4 tps: ");

        WorkloadData.cleanup(target, workloads, console);
        assertThat(tableExists("sbtest1")).isFalse();
        assertThat(tableExists("sbtest2")).isFalse();
    }

    private static Map<String, String> withExpectation(Map<String, String> options) {
        Map<String, String> m = new java.util.HashMap<>(options);
        m.put(WorkloadSpec.EXPECT_DATA_LARGER_THAN_BUFFER_POOL, "true");
        return m;
    }

    /** Data plus index bytes of the tables, as information_schema has them now. */
    private static long dataBytes(String... tables) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password);
             ResultSet rs = c.createStatement().executeQuery("SELECT SUM(data_length + index_length) FROM"
                     + " information_schema.TABLES WHERE table_schema = DATABASE() AND table_name IN ('"
                     + String.join("','", tables) + "')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long rowCount(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password);
             ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean tableExists(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password);
             ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, table, null)) {
            return rs.next();
        }
    }
}
