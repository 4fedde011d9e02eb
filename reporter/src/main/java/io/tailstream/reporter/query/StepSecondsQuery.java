package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the {@link StepSeconds} of steps over their measured spans, as their figures give them
 * ({@link StepFigure.StepRef}). Where the aggregator's windows of a step count exactly the step's measured samples
 * (every one aggregated, none twice), the units are those windows (aligned to the clock; those wholly inside the span),
 * their statements the windows' measured successful statements and their latencies the windows' measured
 * histograms: a read of a few hundred rows. Otherwise (no windows, windows of the first event version, an aggregation
 * that missed samples) one grouped pass over the step's raw samples, units counted from the span's start. Either
 * way the partial units at the span's ends are left out. Stateless and thread safe; the {@link ArchiveDatabase} it
 * reads is not.
 */
final class StepSecondsQuery {

    private static final Logger LOG = LoggerFactory.getLogger(StepSecondsQuery.class);

    /** The bucket of the longest latency a window's histogram holds ({@link LatencyHistograms}: one hour). */
    private static final int MAX_BUCKET = StepSeconds.bucket(LatencyHistograms.HIGHEST_TRACKABLE_MICROS);

    private StepSecondsQuery() {}

    /**
     * The series of each of the given steps, by run and step id; steps without a whole unit are absent.
     *
     * @param steps each step with its measured samples, as its figures count them
     */
    static Map<String, Map<Integer, StepSeconds>> of(ArchiveDatabase db, Map<StepFigure.StepRef, Long> steps)
            throws SQLException {
        Map<String, Map<Integer, StepSeconds>> out = new TreeMap<>();
        if (!db.has(ArchiveLayout.SAMPLES)) {
            return out;
        }
        Map<String, List<Window>> windows = db.has(ArchiveLayout.WINDOWS) ? windows(db, steps.keySet()) : Map.of();
        for (Map.Entry<StepFigure.StepRef, Long> e : steps.entrySet()) {
            StepFigure.StepRef step = e.getKey();
            List<Window> rows = windows.get(stepKey(step.runId(), step.stepId()));
            StepSeconds s = rows == null ? null : fromWindows(rows, step, e.getValue());
            LOG.debug("run {} step {}: seconds from its {}", step.runId(), step.stepId(),
                    s != null ? "windows" : "raw samples");
            if (s == null) {
                s = fromSamples(db, step, STATEMENTS, true);
            }
            if (s != null && s.units() > 0) {
                out.computeIfAbsent(step.runId(), r -> new TreeMap<>()).put(step.stepId(), s);
            }
        }
        return out;
    }

    /**
     * TPC-C's completed New-Orders ({@link TpccSamples#COMPLETED_NEW_ORDER}) of each of the given steps, per unit of
     * their measured spans, counted from the raw samples: the units' {@link StepSeconds#qps} are New-Orders per
     * second, and they carry no latencies. Steps without a whole unit are absent.
     */
    static Map<String, Map<Integer, StepSeconds>> newOrders(ArchiveDatabase db, Collection<StepFigure.StepRef> steps)
            throws SQLException {
        Map<String, Map<Integer, StepSeconds>> out = new TreeMap<>();
        if (!db.has(ArchiveLayout.SAMPLES)) {
            return out;
        }
        for (StepFigure.StepRef step : steps) {
            StepSeconds s = fromSamples(db, step, "CASE WHEN " + TpccSamples.completedNewOrder("samples")
                    + " THEN 1 ELSE 0 END", false);
            if (s != null && s.units() > 0) {
                out.computeIfAbsent(step.runId(), r -> new TreeMap<>()).put(step.stepId(), s);
            }
        }
        return out;
    }

    /** One all-ops window of a step as the archive holds it; {@code measuredCount} null before event version 2. */
    private record Window(long startMs, long endMs, long count, long warmupCount, Long measuredCount,
                          long measuredOkQueries, String histogram, String measuredHistogram, int version) {}

    private static String stepKey(String runId, int stepId) {
        return runId + "\n" + stepId;
    }

    /**
     * The all-ops base windows (each step's shortest: roll-ups left out) of the given steps, by {@link #stepKey}: one
     * read of their runs' windows (a query per step cost more than reading them).
     */
    private static Map<String, List<Window>> windows(ArchiveDatabase db, Collection<StepFigure.StepRef> steps)
            throws SQLException {
        Map<String, List<Window>> out = new HashMap<>();
        if (steps.isEmpty()) {
            return out;
        }
        steps.forEach(step -> out.put(stepKey(step.runId(), step.stepId()), new ArrayList<>()));
        String runs = steps.stream().map(StepFigure.StepRef::runId).distinct().map(ArchiveDatabase::sqlString)
                .collect(Collectors.joining(", "));
        String sql = """
                SELECT run_id, step_id, window_start_ms, window_end_ms, count, warmup_count, measured_count,
                       measured_ok_queries, histogram, measured_histogram, event_version
                FROM windows WHERE run_id IN (%s) AND op = '*'
                QUALIFY window_end_ms - window_start_ms
                    = min(window_end_ms - window_start_ms) OVER (PARTITION BY run_id, step_id)""".formatted(runs);
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<Window> rows = out.get(stepKey(rs.getString(1), rs.getInt(2)));
                if (rows != null) {
                    Object measured = rs.getObject(7);
                    rows.add(new Window(rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                            measured == null ? null : ((Number) measured).longValue(), rs.getLong(8),
                            rs.getString(9), rs.getString(10), rs.getInt(11)));
                }
            }
        }
        return out;
    }

    /** Units of {@code unitUs} over a span of {@code spanUs}, at most {@link StepSeconds#MAX_UNITS}. */
    private static long unitUs(long baseUs, long spanUs) {
        return baseUs * Math.max(1, (long) Math.ceil(spanUs / (double) baseUs / StepSeconds.MAX_UNITS));
    }

    /**
     * One step's series from the aggregator's all-ops windows (rows of {@link #windows}); null unless they are of
     * version 2, of one size, and count exactly {@code measuredSamples}.
     */
    private static StepSeconds fromWindows(List<Window> stepWindows, StepFigure.StepRef step, long measuredSamples) {
        long counted = 0;
        long windowMs = -1;
        for (Window w : stepWindows) {
            long size = w.endMs() - w.startMs();
            if (w.version() != 2 || w.measuredCount() == null || size <= 0 || windowMs >= 0 && size != windowMs) {
                return null;
            }
            windowMs = size;
            counted += w.measuredCount();
        }
        if (stepWindows.isEmpty() || counted != measuredSamples) {
            return null;
        }
        long windowUs = windowMs * 1000;
        long firstWindow = -Math.floorDiv(-step.fromUs(), windowUs);
        long windows = Math.floorDiv(step.toUs(), windowUs) - firstWindow;
        long perUnit = unitUs(windowUs, windows * windowUs) / windowUs;
        int units = (int) Math.max(0, windows / perUnit);
        double[] statements = new double[units];
        long[][] counts = new long[units][MAX_BUCKET + 1];
        for (Window r : stepWindows) {
            long w = Math.floorDiv(r.startMs(), windowMs) - firstWindow;
            int unit = (int) (w < 0 ? -1 : w / perUnit);
            if (unit < 0 || unit >= units) {
                continue;
            }
            statements[unit] += r.measuredOkQueries();
            // the measured samples' latencies: the whole window's, or the measured part of a window mixing both
            String histogram = r.warmupCount() == 0 ? r.histogram()
                    : r.warmupCount() < r.count() ? r.measuredHistogram() : null;
            if (histogram != null) {
                AbstractHistogram h = LatencyHistograms.fromBase64IntCounts(histogram);
                for (HistogramIterationValue v : h.recordedValues()) {
                    int bucket = StepSeconds.bucket(h.medianEquivalentValue(v.getValueIteratedTo()));
                    counts[unit][Math.min(bucket, MAX_BUCKET)] += v.getCountAtValueIteratedTo();
                }
            }
        }
        return StepSeconds.of(perUnit * windowMs / 1000.0, statements, counts);
    }

    /** What a unit counts of a sample, by default: its statements (those before the failing one, when it failed). */
    private static final String STATEMENTS = "CASE WHEN status = 'ok' THEN queries ELSE greatest(queries - 1, 0) END";

    /**
     * One step's series from its raw samples, units counted from the span's start: one grouped pass over the step's
     * row groups, its span as literals; null when the span holds no whole unit.
     *
     * @param counted   SQL of what a sample adds to its unit's count ({@link StepSeconds#qps} is that per second)
     * @param latencies whether the units hold the successful samples' latencies
     */
    private static StepSeconds fromSamples(ArchiveDatabase db, StepFigure.StepRef step, String counted,
                                           boolean latencies) throws SQLException {
        long span = step.toUs() - step.fromUs();
        long unitUs = unitUs(1_000_000L, span);
        int units = (int) (span / unitUs);
        if (units <= 0) {
            return null;
        }
        // per unit, outcome and latency bucket (StepSeconds.bucket, in SQL; one key: unit * 8192, + 4096 + bucket
        // for successes), the statements and the samples; a sample belongs to the unit it completed in
        String end = "(start_us + latency_us)";
        String sql = """
                SELECT (%4$s - %3$d) // %5$d * 8192
                           + CASE WHEN status = 'ok'
                                  THEN 4096 + least(CAST(floor(ln(greatest(latency_us, 1)) * %7$d) AS INTEGER), 4095)
                                  ELSE 0 END AS k,
                       CAST(sum(%8$s) AS BIGINT), count(*)
                FROM samples
                WHERE run_id = %1$s AND step_id = %2$d AND NOT warmup AND %4$s >= %3$d AND %4$s < %3$d + %6$d
                GROUP BY k"""
                .formatted(ArchiveDatabase.sqlString(step.runId()), step.stepId(), step.fromUs(), end, unitUs,
                        units * unitUs, StepSeconds.BUCKETS_PER_E, counted);
        double[] statements = new double[units];
        List<long[]> cells = new ArrayList<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long k = rs.getLong(1);
                int unit = (int) (k >> 13);
                int cell = (int) (k & 8191);
                statements[unit] += rs.getLong(2);
                if (latencies && cell >= 4096) {
                    cells.add(new long[] {unit, cell - 4096, rs.getLong(3)});
                }
            }
        }
        return StepSeconds.build(unitUs / 1e6, statements, cells);
    }
}
