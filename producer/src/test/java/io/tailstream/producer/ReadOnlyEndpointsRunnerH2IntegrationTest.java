package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.H2Sources;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.io.OutputStream;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The runner sends a read-only step's workers to the read-only endpoints and a writing step's to the primary. The
 * H2 "replica" is a separate database that only has tables when the test creates them, so a worker that reaches it
 * is visible: the step fails on its missing table.
 */
class ReadOnlyEndpointsRunnerH2IntegrationTest {

    static final Map<String, String> SMALL = Map.of("table_size", "200");
    /**
     * The writing step's table: 4 writers on 200 rows collide so often that H2 2.3.232 now and then fails a
     * statement with an internal error ("Transaction was illegally transitioned from ROLLING_BACK to ROLLING_BACK",
     * a general error, so the step stops); this test is about where statements go, not about H2 under contention.
     */
    static final Map<String, String> WRITES = Map.of("table_size", "5000");
    final PrintStream console = new PrintStream(OutputStream.nullOutputStream());

    static RunPlan plan(Target target, String workload) {
        return plan(target, workload, SMALL);
    }

    static RunPlan plan(Target target, String workload, Map<String, String> options) {
        return RunPlan.of("run-ro", "test", List.of(target), List.of(new WorkloadSpec(workload, options)),
                List.of(4), 1, Duration.ZERO, Duration.ofMillis(400), 0);
    }

    @Test
    void readOnlyStep_reachesTheReplica_writingStepDoesNot() {
        Target target = Target.withReadOnlyEndpoints("h2-2nodes", "jdbc:h2:mem:rr-primary;DB_CLOSE_DELAY=-1",
                List.of("jdbc:h2:mem:rr-replica1;DB_CLOSE_DELAY=-1"), "sa", () -> "");
        // prepare loads the primary only: the replica has no sbtest1
        try (SampleSink sink = SampleSink.noop("p1")) {
            StepResult rw = new BenchmarkRunner(sink, console).run(plan(target, "oltp_write_only", WRITES)).steps()
                    .get(0);
            // H2 may report concurrent-update conflicts between the 4 writers (ignored, counted); none is "table
            // not found", or the step would have failed
            assertThat(rw.transactions()).isPositive();
            RunResult reads = new BenchmarkRunner(sink, console).run(plan(target, "oltp_point_select"));
            assertThat(reads.completed()).isFalse();
            assertThat(reads.outcome()).startsWith("failed: step 1 (target 'h2-2nodes'").contains("SBTEST1");
        }
    }

    @Test
    void readOnlyStep_withReplicaLoaded_runsOnBoth() throws SQLException {
        Target target = Target.withReadOnlyEndpoints("h2-2nodes", "jdbc:h2:mem:rr2-primary;DB_CLOSE_DELAY=-1",
                List.of("jdbc:h2:mem:rr2-replica1;DB_CLOSE_DELAY=-1"), "sa", () -> "");
        Workloads.create(new WorkloadSpec("oltp_point_select", SMALL)).prepare(H2Sources.inMemory("rr2-replica1"),
                Dialect.forUrl("jdbc:h2:mem:x"), 1, console);
        try (SampleSink sink = SampleSink.noop("p1")) {
            StepResult ps = new BenchmarkRunner(sink, console).run(plan(target, "oltp_point_select")).steps().get(0);
            assertThat(ps.errors()).isZero();
            assertThat(ps.queries()).isEqualTo(ps.transactions()).isPositive();
        }
    }
}
