package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.Plateau;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EffectiveSettingsTest {

    static final List<WorkloadSpec> WORKLOADS = List.of(
            new WorkloadSpec("oltp_point_select", Map.of("table_size", "500")),
            new WorkloadSpec("oltp_read_write", Map.of("tables", "2", "table_size", "1000")));

    static Target h2() {
        return Target.h2InMemory("h2-mem", "golden");
    }

    /** Two targets (one with a read-only endpoint, costs, a password in its URLs), two workloads, a plateau stop. */
    static RunPlan sweep() {
        Target polardb = Target.withReadOnlyEndpoints("polardb",
                "jdbc:mysql://db.example:3306/sbtest?password=s3cret&useSSL=true",
                List.of("jdbc:mysql://ro1.example:3306/sbtest?password=s3cret"), "bench", () -> "pw");
        polardb = new Target(polardb.name(), polardb.jdbcUrl(), polardb.user(), polardb.password(), 5602.0, "CNY", 2,
                "primary + 1 read-only node", polardb.readOnlyUrls(), null);
        return new RunPlan("run-v2", "golden.yaml", List.of(polardb, h2()), WORKLOADS, List.of(8, 16, 32), 3,
                Duration.ofSeconds(5), Duration.ofSeconds(20), 10, true, null,
                List.of("innodb_buffer_pool_size", "sync_binlog"), null, null, new Plateau(7.5, 2), 70.0,
                List.of("rtt", "isolation"), Duration.ofSeconds(45));
    }

    @Test
    void of_writesTheVersion2GoldenSettings_withoutASecret() throws IOException {
        RunSettings settings = EffectiveSettings.of(sweep());
        RunStarted golden = (RunStarted) Json.read(resource("/golden/run-started-v2.json"), ControlEvent.class);
        assertThat(settings).isEqualTo(golden.settings());
        assertThat(settings.targets().keySet()).containsExactly("polardb", "h2-mem");
        assertThat(Json.writeString(settings)).isEqualTo(Json.writeString(golden.settings()))
                .doesNotContain("s3cret", "\"pw\"", "password\":");
    }

    @Test
    void of_sharedOpenLoopRun_producersLoopRateAndIgnoredErrors() {
        RunPlan plan = new RunPlan("run-shared", "shared.yaml", List.of(h2()), WORKLOADS.subList(0, 1), List.of(4), 1,
                Duration.ZERO, Duration.ofSeconds(10), 0, false,
                Set.of(SampleStatus.LOCK_WAIT_TIMEOUT, SampleStatus.DEADLOCK), null, 100_000L, 2000.0, null, 50.0,
                List.of(), null).withProducers(new ProducerGroup(3, true, Duration.ofMinutes(2)));
        RunSettings s = EffectiveSettings.of(plan);
        assertThat(s.version()).isEqualTo(RunSettings.VERSION);
        assertThat(s.loop()).isEqualTo("open");
        assertThat(s.rate()).isEqualTo(2000.0);
        assertThat(s.transactions()).isEqualTo(100_000L);
        assertThat(s.plateau()).isNull();
        assertThat(s.producers()).isEqualTo(new RunSettings.ProducersSetting(3, true, 120_000L));
        assertThat(s.ignoredErrors()).containsExactly("deadlock", "lock_wait_timeout");
        assertThat(s.reconnectTimeoutMs()).isEqualTo(RunPlan.DEFAULT_RECONNECT_TIMEOUT.toMillis());
        assertThat(s.variables()).isNull();
        assertThat(s.accept()).isEmpty();
        assertThat(s.targets().get("h2-mem").ignoredErrors()).containsExactly("deadlock", "lock_wait_timeout");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = EffectiveSettingsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
