package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.StreamingArchive;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.parquet.ParquetTableWriter;
import io.tailstream.reporter.parquet.TableSchema;
import io.tailstream.reporter.report.FixtureRun.Step;
import io.tailstream.reporter.report.FixtureRun.Target;
import io.tailstream.schemas.event.StallEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report at a 12-hour soak's scale (43,200 one-second windows in each of three scopes: all ops, read, update):
 * the figures are exact, the charts down-sampled, and the HTML file under 5 MB. The archive is written by the
 * pipeline's archive writer; a stalls dataset (one 45 s hard stall) is written beside it with the Parquet writer.
 * The time it takes is printed, not asserted (a test must not fail on a busy machine): its target, under 10 s, is
 * measured in docs/benchmarks.md.
 */
class ReportScaleTest {

    static final long HOURS_12_MS = 12 * 3600 * 1000L;

    @TempDir
    Path dir;

    record StallRow(int stepId, String kind, long startMs, long endMs, boolean open) {}

    static final TableSchema<StallRow> STALLS = TableSchema.<StallRow>builder("stalls")
            .int32("step_id", StallRow::stepId)
            .string("kind", StallRow::kind)
            .int64("start_ms", StallRow::startMs)
            .int64("end_ms", StallRow::endMs)
            .bool("open", StallRow::open)
            .build();

    static final long START_MS = 1_767_000_000_000L;
    static final long STALL_START_MS = START_MS + 5 * 3600_000L;

    /** The soak archive: 12 h of one step (10 min warm-up), 12 transactions/s, one 45 s hard stall at 5 h. */
    static FixtureRun writeSoak(Path archive) throws java.io.IOException {
        long warmupMs = 600_000;
        Target t = new Target("mysql-nvme", "MySQL", "8.0.36", Map.of("innodb_flush_log_at_trx_commit", "1"), 4100.0,
                "CNY", 1, 0.2);
        Step soak = new Step(t, "ycsb_update_50", 256, 1, 1, warmupMs, HOURS_12_MS - warmupMs, 12, 900, 0.0005,
                List.of("read", "update"), new double[] {0.5, 1.5}, 35, List.of(new long[] {STALL_START_MS,
                STALL_START_MS + 45_000}));
        FixtureRun run;
        try (StreamingArchive sink = new StreamingArchive(archive, 1_000_000)) {
            run = new FixtureRun("soak-12h", "soak", 7, START_MS, List.of(soak), false, sink, 2);
        }
        Path stallDir = ArchiveLayout.runDir(archive, ArchiveLayout.STALLS, "soak-12h");
        Files.createDirectories(stallDir);
        try (ParquetTableWriter<StallRow> w = ParquetTableWriter.open(stallDir.resolve("stalls.parquet"), STALLS)) {
            // an open stall republished while it lasts, then closed: the report keeps the last (longest) record
            w.write(new StallRow(1, StallEvent.HARD, STALL_START_MS, STALL_START_MS + 20_000, true));
            w.write(new StallRow(1, StallEvent.HARD, STALL_START_MS, STALL_START_MS + 45_000, false));
        }
        return run;
    }

    @Test
    void twelveHourSoak_rendersExactFigures_toUnderFiveMegabytes() throws Exception {
        Path archive = dir.resolve("archive");
        long g0 = System.nanoTime();
        FixtureRun run = writeSoak(archive);
        long generateMs = (System.nanoTime() - g0) / 1_000_000;

        Path out = dir.resolve("soak.html");
        long t0 = System.nanoTime();
        ReportModel model = ReportGenerator.generate(archive, ReportOptions.allRuns(), out);
        long reportMs = (System.nanoTime() - t0) / 1_000_000;
        long bytes = Files.size(out);
        System.out.printf("12 h soak: %,d samples, %,d windows (archive written in %,d ms); report %,d ms, %,d bytes%n",
                run.samples, run.windows, generateMs, reportMs, bytes);

        assertThat(run.allOpsWindows).isBetween(43_200L - 47, 43_200L - 44);
        assertThat(run.windows).isGreaterThan(2 * run.allOpsWindows);
        StepSeries s = model.charts().get(0);
        assertThat(s.windows()).isEqualTo(run.allOpsWindows);
        assertThat(s.epochSeconds().length).isLessThanOrEqualTo(2 * Downsample.DEFAULT_BUCKETS);
        // the stall is shaded from the stalls dataset (the open record superseded by the closed one)
        assertThat(model.stalls()).hasSize(1);
        assertThat(model.stalls().get(0).durationS()).isEqualTo(45.0);
        assertThat(s.stalls()).hasSize(1);
        assertThat(model.soak()).hasSize(1);
        Soak soak = model.soak().get(0);
        assertThat(soak.stallSeconds()).isEqualTo(45.0);
        assertThat(soak.stallSharePct()).isCloseTo(45.0 / ((HOURS_12_MS - 600_000) / 1000.0) * 100,
                org.assertj.core.data.Offset.offset(1e-12));
        assertThat(soak.meanQps()).isCloseTo(12.0, org.assertj.core.data.Offset.offset(0.1)); // 12 transactions/s
        assertThat(Math.abs(soak.trendPctPerHour())).isLessThan(0.1); // a constant rate has no trend
        // tables are not down-sampled: every measured sample is in the summary
        SummaryRow row = model.workloads().get(0).rows().get(0);
        assertThat(row.transactions()).isGreaterThan(run.samples * 95 / 100).isLessThan(run.samples);
        assertThat(row.ralMs()).isNotNull();
        assertThat(row.walMs()).isGreaterThan(row.ralMs());
        assertThat(bytes).as("HTML size").isLessThan(5L * 1024 * 1024);
    }
}
