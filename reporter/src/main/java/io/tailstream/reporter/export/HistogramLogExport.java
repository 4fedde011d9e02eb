package io.tailstream.reporter.export;

import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.RunCatalog;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's latencies as an HdrHistogram interval log (the {@code .hlog} format of HdrHistogram's
 * {@link HistogramLogWriter}, readable by its {@code HistogramLogReader} and {@code HistogramLogProcessor}): one
 * interval per second of completion time and per step and op, tagged {@code step<N>/<op>} (failed transactions,
 * when asked for, {@code step<N>/<op>/failed}). Intervals are the aggregator's windows: a transaction counts in the
 * epoch second it completed in, and the histograms have the contract's configuration (µs, 3 significant digits).
 * They are built from the raw samples, so they are exact whatever the aggregator did.
 *
 * <p>Values are latencies in <b>microseconds</b>; the max column of each interval line is in milliseconds (a
 * max-value unit ratio of 1,000). Interval start times are seconds after the log's base time, the first interval's
 * start. Stateless and thread safe.
 */
public final class HistogramLogExport {

    /** Ratio of the interval lines' max column: µs values shown in ms. */
    static final double MAX_VALUE_UNIT_RATIO = 1000.0;

    private HistogramLogExport() {}

    /**
     * What to export.
     *
     * @param runId          the run
     * @param stepId         one step, or null for every step
     * @param op             one op, or null for every op
     * @param includeWarmup  also samples of the warm-up phase (by default the measurement phase only, as the report)
     * @param includeFailed  also failed transactions, under tags of their own (by default successful ones only, as
     *                       the report's percentiles)
     */
    public record Options(String runId, Integer stepId, String op, boolean includeWarmup, boolean includeFailed) {
        public Options {
            Objects.requireNonNull(runId, "runId");
        }
    }

    /**
     * What was written.
     *
     * @param intervals interval histograms written
     * @param samples   samples in them
     * @param tags      the tags used, sorted
     */
    public record Summary(long intervals, long samples, Set<String> tags) {}

    /**
     * Writes the log to {@code out} (not closed).
     *
     * @throws IllegalArgumentException if the run is not in the archive (the message lists the runs that are), or
     *                                  the step or op selects no sample
     */
    public static Summary write(ArchiveDatabase db, Options options, OutputStream out) throws SQLException {
        RunCatalog.require(db, options.runId());
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder("run_id = ?");
        params.add(options.runId());
        if (options.stepId() != null) {
            where.append(" AND step_id = ?");
            params.add(options.stepId());
        }
        if (options.op() != null) {
            where.append(" AND op = ?");
            params.add(options.op());
        }
        if (!options.includeWarmup()) {
            where.append(" AND NOT warmup");
        }
        if (!options.includeFailed()) {
            where.append(" AND status = 'ok'");
        }
        // one row per distinct latency of a (second, step, op, outcome): far fewer rows than samples
        String sql = "SELECT (start_us + latency_us) // 1000000 AS sec, step_id, op, status = 'ok' AS ok, latency_us,"
                + " count(*) FROM samples WHERE " + where + " GROUP BY ALL ORDER BY sec, step_id, op, ok DESC";
        PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
        HistogramLogWriter log = new HistogramLogWriter(print);
        long intervals = 0;
        long samples = 0;
        Set<String> tags = new TreeSet<>();
        try (PreparedStatement st = db.connection().prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = st.executeQuery()) {
                Histogram h = LatencyHistograms.create();
                String tag = null;
                long sec = 0;
                while (rs.next()) {
                    long rowSec = rs.getLong(1);
                    String rowTag = "step" + rs.getInt(2) + "/" + rs.getString(3) + (rs.getBoolean(4) ? "" : "/failed");
                    if (tag == null) {
                        long baseMs = rowSec * 1000;
                        log.outputComment("tailstream run " + options.runId() + ": latency in microseconds, one"
                                + " interval per second of completion time per step and op");
                        log.outputLogFormatVersion();
                        log.outputStartTime(baseMs);
                        log.setBaseTime(baseMs);
                        log.outputLegend();
                    } else if (rowSec != sec || !rowTag.equals(tag)) {
                        samples += emit(log, h, tag, sec);
                        intervals++;
                        h.reset();
                    }
                    tag = rowTag;
                    sec = rowSec;
                    // clamped as the aggregator clamps: beyond the contract's trackable range counts at its top
                    long latency = Math.min(Math.max(0, rs.getLong(5)), LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
                    h.recordValueWithCount(latency, rs.getLong(6));
                    tags.add(rowTag);
                }
                if (tag != null) {
                    samples += emit(log, h, tag, sec);
                    intervals++;
                }
            }
        }
        print.flush();
        if (intervals == 0) {
            throw new IllegalArgumentException("run " + options.runId() + " has no "
                    + (options.includeFailed() ? "" : "successful ") + (options.includeWarmup() ? "" : "measured ")
                    + "samples" + (options.stepId() == null ? "" : " in step " + options.stepId())
                    + (options.op() == null ? "" : " of op '" + options.op() + "'"));
        }
        return new Summary(intervals, samples, tags);
    }

    private static long emit(HistogramLogWriter log, Histogram h, String tag, long sec) {
        h.setTag(tag);
        h.setStartTimeStamp(sec * 1000);
        h.setEndTimeStamp(sec * 1000 + 1000);
        log.outputIntervalHistogram(h.getStartTimeStamp() / 1000.0 - log.getBaseTime() / 1000.0,
                h.getEndTimeStamp() / 1000.0 - log.getBaseTime() / 1000.0, h, MAX_VALUE_UNIT_RATIO);
        return h.getTotalCount();
    }
}
