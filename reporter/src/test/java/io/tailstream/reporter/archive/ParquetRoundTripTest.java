package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.WindowStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetRoundTripTest {

    @TempDir
    Path archive;

    private static SyntheticRun run(int samplesPerSecond, long measureMs) {
        return new SyntheticRun("run-1", 42, List.of("producer-a", "producer-b"), List.of(
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 4, 1, 1, 1000, measureMs),
                new SyntheticRun.StepSpec("h2-file", "oltp_read_write", 8, 1, 20, 1000, measureMs)),
                samplesPerSecond, 2, 1_750_000_000_000L);
    }

    @Test
    void samples_writtenAndReadBackWithDuckDb_everyRowAndValueEqual() throws SQLException {
        SyntheticRun run = run(2000, 2000);
        ArchiveSummary summary = TestArchives.write(archive, run.allRecords(2, 2));

        assertThat(summary.samplesSeen()).isEqualTo(run.rows.size());
        assertThat(summary.rows(ArchiveLayout.SAMPLES)).isEqualTo(run.rows.size());
        List<SyntheticRun.Row> expected = new ArrayList<>(run.rows);
        expected.sort(Comparator.comparing(SyntheticRun.Row::producerId).thenComparingLong(SyntheticRun.Row::blockSeq)
                .thenComparingLong(SyntheticRun.Row::startUs));
        List<SyntheticRun.Row> actual = new ArrayList<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive);
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, step_id, producer_id, block_seq, op, start_us, latency_us,"
                     + " coalesce(intended_start_us, start_us), status, queries, warmup FROM samples"
                     + " ORDER BY producer_id, block_seq, start_us")) {
            while (rs.next()) {
                assertThat(rs.getString(1)).isEqualTo("run-1");
                actual.add(new SyntheticRun.Row(rs.getInt(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getString(9), rs.getInt(10),
                        rs.getBoolean(11)));
            }
        }
        assertThat(actual).hasSize(expected.size()).isEqualTo(expected);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT producer_id, count(intended_start_us) FROM samples GROUP BY 1"
                     + " ORDER BY 1")) {
            rs.next();
            assertThat(rs.getLong(2)).as("closed loop: intended start is null").isZero();
            rs.next();
            assertThat(rs.getLong(2)).as("open loop: intended start always set")
                    .isEqualTo(run.rows.stream().filter(r -> r.producerId().equals("producer-b")).count());
        }
    }

    @Test
    void samples_eachFileSortedByStartTime_withZstdAndDeltaEncodedTimestamps() throws SQLException {
        SyntheticRun run = run(2000, 2000);
        TestArchives.write(archive, run.allRecords(2, 2));
        String glob = ArchiveLayout.glob(archive, ArchiveLayout.SAMPLES);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT start_us < lag(start_us) OVER "
                    + "(PARTITION BY filename ORDER BY file_row_number) AS back FROM read_parquet("
                    + ArchiveDatabase.sqlString(glob) + ", filename=true, file_row_number=true)) WHERE back");
            rs.next();
            assertThat(rs.getLong(1)).as("rows out of time order within a file").isZero();
            rs = st.executeQuery("SELECT DISTINCT path_in_schema, compression, encodings FROM parquet_metadata("
                    + ArchiveDatabase.sqlString(glob) + ") ORDER BY 1");
            Map<String, String> encodings = new java.util.TreeMap<>();
            while (rs.next()) {
                assertThat(rs.getString(2)).isEqualTo("ZSTD");
                encodings.merge(rs.getString(1), rs.getString(3), (a, b) -> a + "," + b);
            }
            assertThat(encodings.get("start_us")).contains("DELTA_BINARY_PACKED");
            assertThat(encodings.get("op")).containsAnyOf("RLE_DICTIONARY", "PLAIN_DICTIONARY");
            assertThat(encodings).doesNotContainKey("run_id");
        }
    }

    @Test
    void windows_writtenAndReadBack_allFieldsEqual() throws SQLException {
        SyntheticRun run = run(500, 2000);
        TestArchives.write(archive, run.allRecords(2, 2));
        List<WindowStats> actual = new ArrayList<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive);
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, step_id, op, window_start_ms, window_end_ms, count, errors,"
                     + " errors_by_class, queries, warmup_count, late_count, qps, tps, mean_us, p50_us, p90_us, p95_us,"
                     + " p99_us, p999_us, max_us, histogram FROM windows ORDER BY step_id, window_start_ms")) {
            while (rs.next()) {
                @SuppressWarnings("unchecked")
                Map<String, Long> byClass = Json.MAPPER.convertValue(Json.read(rs.getString(8), Map.class),
                        Json.MAPPER.getTypeFactory().constructMapType(Map.class, String.class, Long.class));
                actual.add(new WindowStats(rs.getString(1), rs.getInt(2), rs.getString(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6), rs.getLong(7), byClass, rs.getLong(9), rs.getLong(10),
                        rs.getLong(11), rs.getDouble(12), rs.getDouble(13), rs.getDouble(14), rs.getLong(15),
                        rs.getLong(16), rs.getLong(17), rs.getLong(18), rs.getLong(19), rs.getLong(20),
                        rs.getString(21)));
            }
        }
        List<WindowStats> expected = new ArrayList<>(run.windows);
        expected.sort(Comparator.comparingInt(WindowStats::stepId).thenComparingLong(WindowStats::windowStartEpochMs));
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void stepsAndRuns_derivedFromControlEvents() throws SQLException {
        SyntheticRun run = run(500, 2000);
        TestArchives.write(archive, run.allRecords(2, 2));
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            ResultSet rs = st.executeQuery("SELECT run_id, step_id, target, product, url, workload, threads, round,"
                    + " warmup_ms, measure_ms, queries_per_txn, samples_sent, blocks_sent, errors, outcome,"
                    + " started_at_ms, ended_at_ms, target_variables, monthly_cost, producers, cost_items,"
                    + " client_bound, blocks_spooled, control_events_spooled, max_spool_bytes"
                    + " FROM steps ORDER BY step_id");
            for (int step = 1; step <= 2; step++) {
                assertThat(rs.next()).isTrue();
                int s = step;
                SyntheticRun.StepSpec spec = run.steps.get(step - 1);
                long samples = run.rows.stream().filter(r -> r.stepId() == s).count();
                long errors = run.rows.stream().filter(r -> r.stepId() == s && !r.status().equals("ok")).count();
                assertThat(rs.getString(1)).isEqualTo("run-1");
                assertThat(rs.getInt(2)).isEqualTo(step);
                assertThat(rs.getString(3)).isEqualTo(spec.target());
                assertThat(rs.getString(4)).isEqualTo("H2");
                assertThat(rs.getString(5)).doesNotContain("secret").contains("password=****");
                assertThat(rs.getString(6)).isEqualTo(spec.workload());
                assertThat(rs.getInt(7)).isEqualTo(spec.threads());
                assertThat(rs.getInt(8)).isEqualTo(1);
                assertThat(rs.getLong(9)).isEqualTo(1000);
                assertThat(rs.getLong(10)).isEqualTo(2000);
                assertThat(rs.getDouble(11)).isEqualTo(spec.queriesPerTxn());
                assertThat(rs.getLong(12)).isEqualTo(samples);
                assertThat(rs.getLong(14)).isEqualTo(errors);
                assertThat(rs.getString(15)).isEqualTo("completed");
                assertThat(rs.getLong(17) - rs.getLong(16)).isEqualTo(3000);
                assertThat(rs.getString(18)).contains("\"cache_size\":\"65536\"");
                assertThat(rs.getInt(20)).isEqualTo(2);
                // cost items in plan order; absent (null) for a target without them
                assertThat(rs.getString(21)).isEqualTo(spec.target().contains("file")
                        ? "{\"storage\":30.0,\"compute\":90.0}" : null);
                if (step == 1) {
                    // step_ended version 1 (no spool statistics): NULL, not 0
                    for (int c = 22; c <= 25; c++) {
                        assertThat(rs.getObject(c)).as("column %d", c).isNull();
                    }
                } else {
                    // producer-a: not client-bound, 5 blocks, 1 event, 1000 B; producer-b: bound, 7, 2, 3000 B
                    assertThat(rs.getBoolean(22)).isTrue();
                    assertThat(rs.getLong(23)).isEqualTo(12);
                    assertThat(rs.getLong(24)).isEqualTo(3);
                    assertThat(rs.getLong(25)).isEqualTo(3000);
                }
            }
            assertThat(rs.next()).isFalse();
            rs = st.executeQuery("SELECT run_id, plan_name, producers, blocks_sent, samples_sent, outcome,"
                    + " client_bound, blocks_spooled, control_events_spooled, max_spool_bytes FROM runs");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo("synthetic-plan");
            assertThat(rs.getString(3)).isEqualTo("[\"producer-a\",\"producer-b\"]");
            assertThat(rs.getLong(4)).isEqualTo(run.totalBlocks());
            assertThat(rs.getLong(5)).isEqualTo(run.rows.size());
            assertThat(rs.getString(6)).isEqualTo("completed");
            // only producer-a reported version 2 figures: they are the run's
            assertThat(rs.getBoolean(7)).isFalse();
            assertThat(rs.getObject(7)).isNotNull();
            assertThat(rs.getLong(8)).isEqualTo(5);
            assertThat(rs.getLong(9)).isEqualTo(1);
            assertThat(rs.getLong(10)).isEqualTo(1000);
            rs = st.executeQuery("SELECT count(*) FROM control");
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(run.control.size());
        }
    }

    @Test
    void steps_v3Events_phaseBoundariesReconnectsCpuAndRttMergedOverProducers() throws SQLException {
        SyntheticRun run = new SyntheticRun("run-3", 42, List.of("producer-a", "producer-b"), List.of(
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 4, 1, 1, 1000, 2000),
                new SyntheticRun.StepSpec("h2-file", "oltp_read_write", 8, 1, 20, 1000, 2000)),
                500, 2, 1_750_000_000_000L, true);
        List<SyntheticRun.Rec> records = new ArrayList<>(run.allRecords(2, 2));
        // a step_ended re-sent after a lost acknowledgement: counted once
        records.add(run.controlRecords().stream().filter(r -> new String(r.value()).contains("\"step_ended\""))
                .findFirst().orElseThrow());
        TestArchives.write(archive, records);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            ResultSet rs = st.executeQuery("SELECT step_id, start_us, measure_start_us, measure_end_us, reconnects,"
                    + " load_gen_cpu_pct, process_cpu_pct, rtt_method, rtt_samples, rtt_min_us, rtt_p50_us,"
                    + " rtt_p99_us, rtt_max_us, samples_sent, errors FROM steps ORDER BY step_id");
            for (int step = 1; step <= 2; step++) {
                assertThat(rs.next()).isTrue();
                int s = step;
                List<io.tailstream.schemas.event.StepEnded> ends = run.control.stream()
                        .filter(e -> e instanceof io.tailstream.schemas.event.StepEnded se && se.stepId() == s)
                        .map(e -> (io.tailstream.schemas.event.StepEnded) e).toList();
                assertThat(ends).hasSize(2);
                assertThat(rs.getLong(2)).isEqualTo(ends.stream()
                        .mapToLong(io.tailstream.schemas.event.StepEnded::startEpochMicros).min().orElseThrow());
                assertThat(rs.getLong(3)).isEqualTo(ends.stream()
                        .mapToLong(io.tailstream.schemas.event.StepEnded::measureStartEpochMicros).min().orElseThrow());
                assertThat(rs.getLong(4)).isEqualTo(ends.stream()
                        .mapToLong(io.tailstream.schemas.event.StepEnded::measureEndEpochMicros).max().orElseThrow());
                assertThat(rs.getLong(4) - rs.getLong(3)).isEqualTo(run.measuredSpanUs(step));
                // producer-a reports step + 0 reconnects, producer-b step + 1; CPU: the higher producer's
                assertThat(rs.getLong(5)).isEqualTo(2L * step + 1);
                assertThat(rs.getDouble(6)).isEqualTo(30.0 + step);
                assertThat(rs.getDouble(7)).isEqualTo(61.0);
                // the probe of the first producer that started the step
                io.tailstream.schemas.event.RttProbe rtt = SyntheticRun.rtt(step, 0);
                assertThat(rs.getString(8)).isEqualTo(rtt.method());
                assertThat(rs.getInt(9)).isEqualTo(rtt.samples());
                assertThat(List.of(rs.getDouble(10), rs.getDouble(11), rs.getDouble(12), rs.getDouble(13)))
                        .containsExactly(rtt.minMicros(), rtt.p50Micros(), rtt.p99Micros(), rtt.maxMicros());
                assertThat(rs.getLong(14)).isEqualTo(run.rows.stream().filter(r -> r.stepId() == s).count());
                assertThat(rs.getLong(15)).isEqualTo(ends.stream()
                        .mapToLong(io.tailstream.schemas.event.StepEnded::errors).sum());
            }
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void steps_olderEvents_v3ColumnsNull() throws SQLException {
        TestArchives.write(archive, run(200, 1000).allRecords(2, 2));
        assertThat(TestArchives.rows(archive, "SELECT count(*) FROM steps WHERE start_us IS NULL"
                + " AND measure_start_us IS NULL AND measure_end_us IS NULL AND reconnects IS NULL"
                + " AND load_gen_cpu_pct IS NULL AND process_cpu_pct IS NULL AND rtt_method IS NULL"
                + " AND rtt_samples IS NULL AND rtt_min_us IS NULL AND rtt_p50_us IS NULL AND rtt_p99_us IS NULL"
                + " AND rtt_max_us IS NULL")).containsExactly(List.of(2L));
    }

    @Test
    void blockCheck_everySequenceOnce() throws SQLException {
        SyntheticRun run = run(500, 2000);
        ArchiveSummary summary = TestArchives.write(archive, run.allRecords(2, 2));
        assertThat(summary.blockChecks()).hasSize(2).allSatisfy(c -> {
            assertThat(c.ok()).isTrue();
            assertThat(c.blocks()).isEqualTo(run.blocksSent.get(c.producerId()));
            assertThat(c.blocksSent()).isEqualTo(run.blocksSent.get(c.producerId()));
        });
        assertThat(summary.blocksSeen()).isEqualTo(run.totalBlocks());
    }

    @Test
    void bytesPerSample_onDisk_underFour() throws IOException {
        // 2 producers x 2 steps x 60 s x 5,000 samples/s = 1.2 M samples, ~1 ms lognormal latencies
        SyntheticRun run = run(5000, 59_000);
        TestArchives.write(archive, run.sampleRecords);
        long bytes;
        try (Stream<Path> files = Files.walk(archive.resolve(ArchiveLayout.SAMPLES))) {
            bytes = files.filter(p -> p.toString().endsWith(".parquet")).mapToLong(p -> p.toFile().length()).sum();
        }
        double perSample = (double) bytes / run.rows.size();
        System.out.printf("samples: %d rows, %d bytes, %.2f bytes/sample%n", run.rows.size(), bytes, perSample);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT path_in_schema, sum(total_compressed_size) FROM parquet_metadata("
                     + ArchiveDatabase.sqlString(ArchiveLayout.glob(archive, ArchiveLayout.SAMPLES))
                     + ") GROUP BY 1 ORDER BY 2 DESC")) {
            while (rs.next()) {
                System.out.printf("  %-18s %.3f bytes/sample%n", rs.getString(1),
                        (double) rs.getLong(2) / run.rows.size());
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        assertThat(perSample).isLessThan(4.0);
    }
}
