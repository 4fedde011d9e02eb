package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ServerCounters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's reading of the server_counters dataset: a global read lock held from 40 s to 45 s of a step, with
 * readings once a second; a second producer's readings (which must not count) and a failed reading.
 */
class ServerCountersQueryTest {

    static final String RUN = "srv-1";
    static final long T0 = 1_760_000_000_000L;

    @TempDir
    Path archive;

    /** Producer p1's readings, once a second from T0 + 0.25 s for 60 s; at 20 s a failed one. */
    private static List<ServerCounters> readings(String producer, long offsetMs, int waitingDuringLock) {
        List<ServerCounters> out = new ArrayList<>();
        long logged = 0;
        for (int i = 0; i <= 60; i++) {
            long at = T0 + 1_000L * i + 250 + offsetMs;
            boolean locked = at >= T0 + 40_000 && at <= T0 + 45_000;
            if (i == 20) {
                out.add(new ServerCounters(RUN, at, producer, 1, "maria", null, null, 2_000_000, "timed out"));
                continue;
            }
            // the log stands still over the intervals whose middle falls in the lock
            long middle = at - 500;
            logged += middle >= T0 + 40_000 && middle <= T0 + 45_000 ? 0 : 1_000_000;
            Map<String, Long> gauges = new HashMap<>();
            gauges.put("Threads_running", locked ? 9L : 3L + i % 3);
            gauges.put("Innodb_row_lock_current_waits", i == 30 ? 1L : 0L);
            gauges.put("Innodb_buffer_pool_pages_dirty", 900L + i);
            gauges.put("Innodb_buffer_pool_pages_total", 1_000L);
            if (locked) {
                gauges.put("state.Waiting for backup lock", (long) waitingDuringLock);
            }
            out.add(new ServerCounters(RUN, at, producer, 1, "maria", gauges,
                    Map.of("Innodb_os_log_written", logged, "Questions", 20_000L * i), 900, null));
        }
        return out;
    }

    private void write() {
        SyntheticRun run = new SyntheticRun(RUN, 7, List.of("p1", "p2"), List.of(
                new SyntheticRun.StepSpec("maria", "oltp_read_write", 8, 1, 20, 500, 60_000)), 50, 2, T0);
        List<SyntheticRun.Rec> records = new ArrayList<>(run.allRecords(2, 2));
        List<ServerCounters> all = new ArrayList<>(readings("p1", 0, 8));
        // the second producer reads the same server a little later, and sees more sessions: it must not count
        all.addAll(readings("p2", 300, 99));
        byte[] key = RUN.getBytes(StandardCharsets.UTF_8);
        all.forEach(c -> records.add(new SyntheticRun.Rec(Topics.CONTROL, 0, key, Json.write(c))));
        TestArchives.write(archive, records);
    }

    @Test
    void aStall_namesTheWaitingSessionsOfTheFirstProducer_andTheLogThatStopped() throws Exception {
        write();
        Stall lock = new Stall(RUN, 1, "maria", "oltp_read_write", 8, "hard", T0 + 40_000, T0 + 45_000);
        Stall early = new Stall(RUN, 1, "maria", "oltp_read_write", 8, "hard", T0 + 1_000, T0 + 2_000);
        Stall otherStep = new Stall(RUN, 2, "maria", "oltp_read_write", 8, "hard", T0 + 40_000, T0 + 45_000);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            List<Stall> out = ServerCountersQuery.explain(db, "run_id = '" + RUN + "'", List.of(lock, early,
                    otherStep));
            assertThat(out.get(0).serverNote()).isNull();
            // the log and the waiting sessions never varied before: both infinitely far, both wholly changed, so by
            // name; before: readings 10..39 s but the failed one at 20 s, threads 3 + i % 3: 115 / 29 = 3.97
            assertThat(out.get(0).serverCounters()).containsExactly("Innodb_os_log_written 1 MB/s → 0 B/s",
                    "state.Waiting for backup lock 0 → 8", "Threads_running 3.97 → 9");
            assertThat(out.get(1).serverCounters()).isEmpty();
            assertThat(out.get(1).serverNote()).contains("too few counter readings");
            assertThat(out.get(2).serverNote()).isEqualTo("no server counters were read");
        }
    }

    @Test
    void theCharts_runningWaitingAndDirtyPages_perReading_asAnIndependentQueryComputesThem() throws Exception {
        write();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            ServerChart chart = ServerCountersQuery.charts(db, "run_id = '" + RUN + "'").get(new StepKey(RUN, 1));
            assertThat(chart.sessions()).extracting(ServerChart.Line::label)
                    .containsExactly(ServerChart.RUNNING, ServerChart.WAITING);
            assertThat(chart.pressure()).extracting(ServerChart.Line::label).containsExactly(ServerChart.DIRTY_PCT);
            // p1's readings: waiting = sessions in a Waiting state + InnoDB row-lock waits; dirty = dirty / total
            List<List<Object>> expected = TestArchives.rows(archive, "SELECT at_ms / 1000.0,"
                    + " CASE WHEN bool_or(error IS NOT NULL) THEN NULL ELSE coalesce(sum(value) FILTER (WHERE name LIKE"
                    + " 'state.Waiting%' OR name = 'Innodb_row_lock_current_waits'), 0) END,"
                    + " 100.0 * max(value) FILTER (WHERE name = 'Innodb_buffer_pool_pages_dirty')"
                    + " / max(value) FILTER (WHERE name = 'Innodb_buffer_pool_pages_total')"
                    + " FROM server_counters WHERE producer_id = 'p1' GROUP BY at_ms ORDER BY at_ms");
            ServerChart.Line waiting = chart.sessions().get(1);
            ServerChart.Line dirty = chart.pressure().get(0);
            assertThat(waiting.epochSeconds()).hasSize(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                List<Object> row = expected.get(i);
                assertThat(waiting.epochSeconds()[i]).isCloseTo(((Number) row.get(0)).doubleValue(), within(1e-6));
                if (row.get(1) == null) {
                    assertThat(waiting.values()[i]).isNaN();
                } else {
                    assertThat(waiting.values()[i]).isEqualTo(((Number) row.get(1)).doubleValue());
                }
                if (row.get(2) == null) {
                    assertThat(dirty.values()[i]).isNaN();
                } else {
                    assertThat(dirty.values()[i]).isCloseTo(((Number) row.get(2)).doubleValue(), within(1e-9));
                }
            }
            assertThat(waiting.values()).contains(8.0, 1.0);
            assertThat(java.util.Arrays.stream(waiting.values()).filter(Double::isNaN).count()).isEqualTo(1);
        }
    }
}
