package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun.Rec;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code steps} and {@code runs} files rebuilt flush by flush from the kept {@link ControlHistory}, across a
 * restart of the writer, equal those projected in one flush from every control event.
 */
class ControlHistoryTest {

    private static final TargetInfo TARGET = new TargetInfo("mariadb", "jdbc:mysql://127.0.0.1:3306/sbtest",
            "MariaDB", "10.11", Map.of("innodb_flush_log_at_trx_commit", "1"), 100.0, "CNY", 1, null);

    @TempDir
    Path dir;

    private static ClientHealth health(String run, long at, String producer, int step, double cpu) {
        return new ClientHealth(run, at, producer, step, cpu, 50.0, 4, 1, Map.of("mariadb", 0.2), cpu > 90);
    }

    private static ServerCounters counters(String run, long at, String producer, int step) {
        return new ServerCounters(run, at, producer, step, "mariadb", Map.of("Threads_running", 4L),
                Map.of("Innodb_os_log_written", at * 10), 800, null);
    }

    private static StepStarted started(String run, long at, String producer, int step, int threads) {
        return new StepStarted(run, at, producer, step, TARGET, "oltp_point_select", threads, 1, 1_000, 5_000,
                List.of("point_select"), 1, Map.of());
    }

    /**
     * Two runs: "full" with two producers, p2's client health before the run started and p1's step_ended sent
     * twice; "headless" without run_started or run_ended, whose start and producers come from the periodic events
     * only (h3 sent nothing but server counters, the earliest event of the run).
     */
    private static List<ControlEvent> events() {
        List<ControlEvent> out = new ArrayList<>();
        out.add(health("full", 900, "p2", 1, 10));
        out.add(new RunStarted("full", 1_000, "p1", "plan", List.of(TARGET), Map.of("host", "a"), RunSettings.NONE));
        out.add(new RunStarted("full", 1_010, "p2", "plan", List.of(TARGET), Map.of("host", "b"), RunSettings.NONE));
        out.add(health("headless", 5_000, "h2", 1, 20));
        for (int step = 1; step <= 3; step++) {
            long t = 1_000L * step * 10;
            out.add(started("full", t, "p1", step, 4));
            out.add(started("full", t + 5, "p2", step, 2));
            for (int k = 1; k <= 20; k++) {
                out.add(health("full", t + 100 * k, k % 2 == 0 ? "p1" : "p2", step, 30 + k * 3));
                out.add(counters("full", t + 100 * k + 1, k % 2 == 0 ? "p1" : "p2", step));
            }
            out.add(new StepEnded("full", t + 6_000, "p1", step, 1_000L * step, 10, 1, "completed"));
            out.add(new StepEnded("full", t + 6_001, "p1", step, 1_000L * step, 10, 1, "completed"));
            out.add(new StepEnded("full", t + 6_002, "p2", step, 500L * step, 5, 0, "completed"));
        }
        out.add(health("headless", 4_000, "h1", 1, 95));
        out.add(counters("headless", 4_500, "h3", 1));
        out.add(counters("headless", 3_500, "h3", 1));
        out.add(started("headless", 6_000, "h1", 1, 8));
        out.add(new RunEnded("full", 40_000, "p1", 30, 6_000, "completed"));
        out.add(new RunEnded("full", 40_001, "p2", 15, 3_000, "completed"));
        return out;
    }

    private static Rec rec(ControlEvent e) {
        return new Rec(Topics.CONTROL, 0, e.runId().getBytes(StandardCharsets.UTF_8), Json.write(e));
    }

    @Test
    void derivedFiles_flushByFlushAcrossARestart_equalOneProjectionOfEveryEvent() throws Exception {
        List<ControlEvent> events = events();
        Path whole = dir.resolve("whole");
        TestArchives.write(whole, events.stream().map(ControlHistoryTest::rec).toList());

        Path incremental = dir.resolve("incremental");
        TopicPartition tp = new TopicPartition(Topics.CONTROL, 0);
        int half = events.size() / 2;
        try (ArchiveWriter w = new ArchiveWriter(incremental, 1, offsets -> { })) {
            w.addPartition(tp, 0);
            for (int i = 0; i < half; i++) {
                w.accept(new ConsumerRecord<>(tp.topic(), 0, i, null, Json.write(events.get(i))));
            }
            w.flushAll();
        }
        // a new writer (a restarted archiver) reads the earlier files once, then only its own
        try (ArchiveWriter w = new ArchiveWriter(incremental, 3, offsets -> { })) {
            w.addPartition(tp, half);
            for (int i = half; i < events.size(); i++) {
                w.accept(new ConsumerRecord<>(tp.topic(), 0, i, null, Json.write(events.get(i))));
            }
            w.flushAll();
        }

        for (String sql : List.of("SELECT * FROM steps ORDER BY run_id, step_id",
                "SELECT * FROM runs ORDER BY run_id")) {
            List<List<Object>> expected = TestArchives.rows(whole, sql);
            assertThat(expected).as(sql).hasSizeGreaterThan(1);
            assertThat(TestArchives.rows(incremental, sql)).as(sql).isEqualTo(expected);
        }
        // the figures that only the periodic events give: the headless run's producers and start
        assertThat(TestArchives.rows(incremental,
                "SELECT producers, started_at_ms FROM runs WHERE run_id = 'headless'"))
                .containsExactly(List.of("[\"h1\",\"h2\",\"h3\"]", 3_500L));
    }
}
