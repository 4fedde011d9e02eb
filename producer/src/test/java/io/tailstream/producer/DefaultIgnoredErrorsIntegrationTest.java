package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.ListTransport;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TestTargets;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plan that sets no {@code ignoreErrors} gets each product's sysbench default: {@code oltp_read_write} with 16
 * threads on 100 rows (deadlocks on both products, and on PostgreSQL duplicate keys from the DELETE+INSERT pair)
 * runs to its end against the local PostgreSQL and MariaDB, and the effective set is recorded and printed per
 * target.
 */
class DefaultIgnoredErrorsIntegrationTest {

    static final List<WorkloadSpec> CONTENDED = List.of(new WorkloadSpec("oltp_read_write",
            Map.of("table_size", "100")));

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    @Test
    void postgresql_contendedReadWrite_runsToItsEnd_ignoringDeadlocksAndDuplicateKeys() {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        Target pg = TestTargets.postgresql(server);
        StepResult step = runContended(pg, "[deadlock, duplicate_key]");
        assertThat(step.failures().byClass().keySet()).isSubsetOf("deadlock", "duplicate_key");
    }

    @Test
    void mariadb_contendedReadWrite_keepsSysbenchsMysqlDefault() {
        MySqlTestServer server = MySqlTestServer.require();
        Target maria = Target.of("mariadb-local", server.url("mariadb"), server.user(), server::password);
        StepResult step = runContended(maria, "[deadlock, lock_wait_timeout]");
        assertThat(step.failures().byClass().keySet()).isSubsetOf("deadlock", "lock_wait_timeout");
    }

    private StepResult runContended(Target target, String expectedIgnored) {
        RunPlan plan = RunPlan.of("it-ignored-" + target.name(), "test", List.of(target), CONTENDED, List.of(16), 1,
                Duration.ZERO, Duration.ofSeconds(4), 1);
        ListTransport transport = new ListTransport(1);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink(plan.runId(), "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        } finally {
            WorkloadData.cleanup(target, CONTENDED, console);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        StepResult step = result.steps().get(0);
        assertThat(step.completed()).as(text).isTrue();
        assertThat(step.transactions()).isPositive();
        RunStarted started = transport.control().stream().map(b -> Json.read(b, ControlEvent.class))
                .filter(RunStarted.class::isInstance).map(RunStarted.class::cast).findFirst().orElseThrow();
        assertThat(started.settings().ignoredErrors()).as("the product default").isNull();
        assertThat(started.settings().targets().get(target.name()).ignoredErrors()).hasToString(expectedIgnored);
        assertThat(text).contains("), ignoring " + expectedIgnored);
        return step;
    }
}
