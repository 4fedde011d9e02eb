package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stalls, summaries, client_health and server_counters datasets: every record archived, the last one per key derived. */
class HistoryDatasetsTest {

    @TempDir
    Path archive;

    static SyntheticRun run(String id, long seed) {
        return new SyntheticRun(id, seed, List.of("p1", "p2"), List.of(
                new SyntheticRun.StepSpec("a", "oltp_point_select", 4, 1, 1, 500, 1000),
                new SyntheticRun.StepSpec("b", "oltp_read_write", 8, 1, 20, 500, 1000)), 200, 2, 1_760_000_000_000L);
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        return TestArchives.rows(archive, sql);
    }

    @Test
    void stallsSummariesClientHealth_everyRecordArchived_lastPerKeyDerived() throws SQLException {
        SyntheticRun run = run("hist-1", 3);
        HistoryEvents extra = new HistoryEvents(run);
        List<SyntheticRun.Rec> records = extra.after(run.allRecords(2, 2));
        // small files: the last record of a key sits in a later file than its first
        ArchiveSummary summary = TestArchives.write(archive, records, 2);
        assertThat(summary.corruptRecords()).isZero();

        assertThat(rows("SELECT count(*) FROM stall_events")).containsExactly(List.of((long) extra.stalls.size()));
        List<StallEvent> expectedStalls = extra.stalls.stream().filter(s -> !s.open()).toList();
        List<List<Object>> stalls = rows("SELECT run_id, step_id, kind, start_ms, end_ms, open, min_qps, worst_p99_us,"
                + " affected_ops, at_ms FROM stalls ORDER BY step_id, kind, start_ms");
        assertThat(stalls).hasSize(expectedStalls.size());
        List<List<Object>> expected = expectedStalls.stream()
                .sorted(java.util.Comparator.comparingInt(StallEvent::stepId).thenComparing(StallEvent::kind))
                .map(s -> List.<Object>of(run.runId, s.stepId(), s.kind(), s.startEpochMs(), s.endEpochMs(), false,
                        s.minQps(), s.worstP99Micros(), s.kind().equals("hard") ? "[\"txn\"]" : "[]", s.atEpochMs()))
                .toList();
        assertThat(stalls).isEqualTo(expected);

        assertThat(rows("SELECT count(*) FROM summary_events")).containsExactly(List.of((long) extra.summaries.size()));
        List<StepSummary> lastSummaries = extra.summaries.stream().filter(s -> s.count() == 1001).toList();
        assertThat(rows("SELECT step_id, op, count, errors, errors_by_class, qps, tps, p99_us, stall_ms, at_ms,"
                + " histogram FROM summaries ORDER BY step_id")).isEqualTo(lastSummaries.stream()
                .map(s -> java.util.Arrays.<Object>asList(s.stepId(), "*", 1001L, 5L, "{\"deadlock\":5}", 10_000.0,
                        497.5, 2500L, 5000L, s.atEpochMs(), null)).toList());

        List<ClientHealth> h = extra.health;
        assertThat(rows("SELECT count(*), sum(process_cpu_pct), sum(machine_cpu_pct), CAST(sum(gc_pause_ms) AS BIGINT),"
                + " count(*) FILTER (WHERE client_bound), count(DISTINCT producer_id) FROM client_health"))
                .containsExactly(List.of((long) h.size(), h.stream().mapToDouble(ClientHealth::processCpuPct).sum(),
                        h.stream().mapToDouble(ClientHealth::machineCpuPct).sum(),
                        h.stream().mapToLong(ClientHealth::gcPauseMs).sum(),
                        h.stream().filter(ClientHealth::clientBound).count(), 2L));
        // the CPU split of version-2 events; NULL in version-1 events (p2)
        List<ClientHealth> v2 = h.stream().filter(x -> x.loadGenCpuPct() != null).toList();
        assertThat(v2).isNotEmpty().allSatisfy(x -> assertThat(x.producerId()).isEqualTo("p1"));
        assertThat(rows("SELECT count(*), sum(load_gen_cpu_pct), sum(pipeline_cpu_pct), sum(jvm_cpu_pct)"
                + " FROM client_health WHERE load_gen_cpu_pct IS NOT NULL")).containsExactly(List.of(
                (long) v2.size(), v2.stream().mapToDouble(ClientHealth::loadGenCpuPct).sum(),
                v2.stream().mapToDouble(ClientHealth::pipelineCpuPct).sum(),
                v2.stream().mapToDouble(ClientHealth::jvmCpuPct).sum()));
        assertThat(rows("SELECT count(*) FROM client_health WHERE producer_id = 'p2' AND load_gen_cpu_pct IS NULL"
                + " AND pipeline_cpu_pct IS NULL AND jvm_cpu_pct IS NULL"))
                .containsExactly(List.of(h.size() - (long) v2.size()));
        assertThat(rows("SELECT rtt_ms FROM client_health WHERE step_id = 2 AND producer_id = 'p1' ORDER BY at_ms"))
                .containsExactly(List.of("{\"b\":0.25}"), List.of("{\"b\":1.25}"), List.of("{\"b\":2.25}"));
        // client health stays in control as well (every control event as sent)
        assertThat(rows("SELECT count(*) FROM control WHERE type = 'client_health'"))
                .containsExactly(List.of((long) h.size()));
    }

    @Test
    void rewritingTheSameRecords_keepsExactlyOneRowPerKey() throws SQLException {
        SyntheticRun run = run("hist-2", 4);
        HistoryEvents extra = new HistoryEvents(run);
        List<SyntheticRun.Rec> records = extra.after(run.allRecords(2, 2));
        TestArchives.write(archive, records, 3);
        // a second archiver over the same offsets (a lost commit) rewrites the same files
        TestArchives.write(archive, records, 3);
        assertThat(rows("SELECT count(*) FROM stall_events")).containsExactly(List.of((long) extra.stalls.size()));
        assertThat(rows("SELECT count(*) FROM stalls")).containsExactly(List.of(4L));
        assertThat(rows("SELECT count(*) FROM summaries")).containsExactly(List.of(2L));
        assertThat(rows("SELECT count(*) FROM client_health")).containsExactly(List.of((long) extra.health.size()));
        assertThat(rows("SELECT count(*) FROM server_counters")).containsExactly(List.of(valueRows(extra)));
    }

    /** A reading's rows: one per value, or one without a value for a failed reading. */
    private static long valueRows(HistoryEvents extra) {
        return extra.counters.stream().mapToLong(c -> Math.max(1, c.gauges().size() + c.counters().size())).sum();
    }

    @Test
    void serverCounters_oneRowPerValue_aFailedReadingOneRowWithItsError() throws SQLException {
        SyntheticRun run = run("hist-3", 5);
        HistoryEvents extra = new HistoryEvents(run);
        TestArchives.write(archive, extra.after(run.allRecords(2, 2)), 2);

        assertThat(rows("SELECT count(*) FROM server_counters")).containsExactly(List.of(valueRows(extra)));
        List<List<Object>> expected = new java.util.ArrayList<>();
        for (ServerCounters c : extra.counters) {
            c.gauges().forEach((n, v) -> expected.add(java.util.Arrays.asList(c.stepId(), c.producerId(), c.target(),
                    c.atEpochMs(), n, "gauge", v, c.readMicros(), null)));
            c.counters().forEach((n, v) -> expected.add(java.util.Arrays.asList(c.stepId(), c.producerId(),
                    c.target(), c.atEpochMs(), n, "counter", v, c.readMicros(), null)));
            if (c.error() != null) {
                expected.add(java.util.Arrays.asList(c.stepId(), c.producerId(), c.target(), c.atEpochMs(), null,
                        null, null, c.readMicros(), c.error()));
            }
        }
        assertThat(rows("SELECT step_id, producer_id, target, at_ms, name, kind, value, read_us, error"
                + " FROM server_counters")).containsExactlyInAnyOrderElementsOf(expected);
        // a counter's difference between readings: the log written in one second, per producer and step
        assertThat(rows("SELECT DISTINCT value - lag(value) OVER (PARTITION BY producer_id, step_id ORDER BY at_ms)"
                + " FROM server_counters WHERE name = 'Innodb_os_log_written' QUALIFY lag(value) OVER"
                + " (PARTITION BY producer_id, step_id ORDER BY at_ms) IS NOT NULL"))
                .containsExactly(List.of(65_536L));
        // the events stay in control as sent
        assertThat(rows("SELECT count(*) FROM control WHERE type = 'server_counters'"))
                .containsExactly(List.of((long) extra.counters.size()));
    }
}
