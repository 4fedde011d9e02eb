package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream export --format hlog}: an archive of known samples (two steps, two ops, warm-up, failures,
 * latencies over three orders of magnitude) is exported and read back with HdrHistogram's own
 * {@link HistogramLogReader} and {@link HistogramLogProcessor}; every interval's count and percentiles equal a
 * histogram built independently from the same samples, and the processor's totals equal DuckDB's exact figures
 * within the histogram's precision.
 */
class ExportCommandTest {

    private static final long T0_MS = 1_764_000_000_000L;
    private static final String RUN = "r1";

    @TempDir
    Path dir;

    private Path archive;

    @BeforeEach
    void writeArchive() throws Exception {
        archive = dir.resolve("archive");
        for (String d : new String[] {"samples", "steps", "runs"}) {
            Files.createDirectories(archive.resolve(d).resolve("run_id=" + RUN));
        }
        String a = archive.toAbsolutePath().toString();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            // 20,000 samples over ~10 s; latency 50 µs .. ~500 ms, heavy-tailed; every 97th failed; first 2,000
            // warm-up; step 1 for the first half, step 2 for the second; ops alternate
            st.execute("COPY (SELECT CASE WHEN i < 10000 THEN 1 ELSE 2 END AS step_id, 'p1' AS producer_id,"
                    + " CAST(i // 100 AS BIGINT) AS block_seq, CASE WHEN i % 2 = 0 THEN 'read' ELSE 'write' END AS op,"
                    + " CAST(" + T0_MS * 1000 + " + i * 500 AS BIGINT) AS start_us,"
                    + " CAST(50 + (i * 7919) % 997 * CASE WHEN i % 1000 = 0 THEN 500 ELSE 1 END AS BIGINT) AS latency_us,"
                    + " CAST(NULL AS BIGINT) AS intended_start_us,"
                    + " CASE WHEN i % 97 = 0 THEN 'deadlock' ELSE 'ok' END AS status, 1 AS queries,"
                    + " i < 2000 AS warmup FROM range(20000) t(i)) TO '" + a + "/samples/run_id=" + RUN
                    + "/s.parquet' (FORMAT parquet)");
            st.execute("COPY (SELECT * FROM (VALUES (1, 'h2', 'oltp', 4, 1), (2, 'h2', 'oltp', 8, 1))"
                    + " t(step_id, target, workload, threads, round)) TO '" + a + "/steps/run_id=" + RUN
                    + "/steps.parquet' (FORMAT parquet)");
            st.execute("COPY (SELECT 'p' AS plan_name, CAST(" + T0_MS + " AS BIGINT) AS started_at_ms,"
                    + " CAST(" + (T0_MS + 20_000) + " AS BIGINT) AS ended_at_ms, 'completed' AS outcome,"
                    + " CAST(20000 AS BIGINT) AS samples_sent) TO '" + a + "/runs/run_id=" + RUN
                    + "/runs.parquet' (FORMAT parquet)");
        }
    }

    @Test
    void hlog_readBackWithHdrHistogram_equalsTheSamplesPerSecondStepAndOp() throws Exception {
        Path hlog = dir.resolve("r1.hlog");
        CliUsageTest.Outcome o = CliUsageTest.execute("export", "--archive", archive.toString(), "--run", RUN,
                "--format", "hlog", "--out", hlog.toString());
        assertThat(o.exitCode()).as(o.err()).isZero();

        Map<String, Histogram> expected = expectedIntervals("NOT warmup AND status = 'ok'", "");
        Map<String, Histogram> actual = new TreeMap<>();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null;
                 e = reader.nextIntervalHistogram()) {
                Histogram h = (Histogram) e;
                // the reader restores each interval's absolute start time (ms since the epoch)
                long sec = Math.round(h.getStartTimeStamp() / 1000.0);
                assertThat(h.getEndTimeStamp() - h.getStartTimeStamp()).isEqualTo(1000);
                assertThat(actual.put(h.getTag() + "@" + sec, h)).as("one interval per tag and second").isNull();
            }
        }
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        assertThat(actual.keySet()).anyMatch(k -> k.startsWith("step1/read@"))
                .anyMatch(k -> k.startsWith("step2/write@")).noneMatch(k -> k.contains("failed"));
        for (Map.Entry<String, Histogram> e : expected.entrySet()) {
            Histogram a = actual.get(e.getKey());
            Histogram x = e.getValue();
            assertThat(a.getTotalCount()).as(e.getKey()).isEqualTo(x.getTotalCount());
            for (double p : new double[] {50, 90, 99, 99.9, 100}) {
                assertThat(a.getValueAtPercentile(p)).as(e.getKey() + " p" + p).isEqualTo(x.getValueAtPercentile(p));
            }
        }
        assertThat(o.out()).contains(String.format("%,d samples", expected.values().stream()
                .mapToLong(Histogram::getTotalCount).sum()));
    }

    /** HistogramLogProcessor's overall distribution of one tag against DuckDB's exact figures over raw samples. */
    @Test
    void hlog_histogramLogProcessorTotals_matchExactFiguresWithinHistogramPrecision() throws Exception {
        Path hlog = dir.resolve("step2.hlog");
        CliUsageTest.Outcome o = CliUsageTest.execute("export", "--archive", archive.toString(), "--run", RUN,
                "--step", "2", "--op", "write", "--include-failed", "--out", hlog.toString());
        assertThat(o.exitCode()).as(o.err()).isZero();
        Path processed = dir.resolve("step2-processed");
        HistogramLogProcessor processor = new HistogramLogProcessor(new String[] {"-i", hlog.toString(), "-o",
                processed.toString(), "-tag", "step2/write", "-outputValueUnitRatio", "1"});
        processor.run();
        String hgrm = Files.readString(Path.of(processed + ".hgrm"));
        long total = Long.parseLong(hgrm.replaceAll("(?s).*Total count\\s*=\\s*(\\d+).*", "$1"));
        double max = Double.parseDouble(hgrm.replaceAll("(?s).*#\\[Max\\s*=\\s*([0-9.]+).*", "$1"));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), max(latency_us) FROM read_parquet('"
                     + archive.toAbsolutePath() + "/samples/**/*.parquet') WHERE step_id = 2 AND op = 'write'"
                     + " AND NOT warmup AND status = 'ok'")) {
            rs.next();
            assertThat(total).isEqualTo(rs.getLong(1));
            // HdrHistogram reports the highest equivalent value of the max's bucket: 3 significant digits
            assertThat(max).isBetween((double) rs.getLong(2), rs.getLong(2) * 1.001);
        }
        // the failed transactions went under a tag of their own
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            long failed = 0;
            for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null;
                 e = reader.nextIntervalHistogram()) {
                if ("step2/write/failed".equals(e.getTag())) {
                    failed += ((Histogram) e).getTotalCount();
                }
            }
            assertThat(failed).isEqualTo(expectedIntervals("NOT warmup AND status <> 'ok' AND step_id = 2"
                    + " AND op = 'write'", "/failed").values().stream().mapToLong(Histogram::getTotalCount).sum())
                    .isPositive();
        }
    }

    @Test
    void unknownRun_namesTheRunsThatExist_andWritesNoFile() {
        Path hlog = dir.resolve("none.hlog");
        CliUsageTest.Outcome o = CliUsageTest.execute("export", "--archive", archive.toString(), "--run", "nope",
                "--out", hlog.toString());
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("nope").contains(RUN);
        assertThat(hlog).doesNotExist();
        assertThat(dir.resolve("none.hlog.partial")).doesNotExist();
    }

    /** Histograms per "tag@epochSecond" of the samples selected by {@code where}, built in Java. */
    private Map<String, Histogram> expectedIntervals(String where, String tagSuffix) throws Exception {
        Map<String, Histogram> out = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT step_id, op, (start_us + latency_us) // 1000000, latency_us"
                     + " FROM read_parquet('" + archive.toAbsolutePath() + "/samples/**/*.parquet') WHERE " + where)) {
            while (rs.next()) {
                String key = "step" + rs.getInt(1) + "/" + rs.getString(2) + tagSuffix + "@" + rs.getLong(3);
                LatencyHistograms.record(out.computeIfAbsent(key, k -> LatencyHistograms.create()), rs.getLong(4));
            }
        }
        return new TreeMap<>(out);
    }
}
