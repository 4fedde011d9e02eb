package io.tailstream.schemas.event;

import io.tailstream.schemas.histogram.LatencyFigures;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Statistics of one scope (run, step, op) over one time window, as the aggregator emits them on
 * {@link io.tailstream.schemas.Topics#WINDOWS}. A sample counts in the window its transaction <em>completed</em>
 * in (start + latency), the way sysbench counts transactions per report interval.
 *
 * <p><b>Version 2</b> (this one; {@code version} absent or 0 in JSON means version 1) counts work done: {@code qps}
 * and {@code tps} are the statements and transactions of <em>successful</em> samples per second, errors have their
 * own rate ({@code errorsPerSecond}), and {@code histogram}, {@code meanMicros}, the percentiles and
 * {@code maxMicros} describe the successful samples only; failed samples' latencies are in {@code errorHistogram}.
 * {@code count}, {@code errors} and {@code queries} still count every sample. A window that mixes warm-up and
 * measured samples carries its measured samples apart in {@link #measured()}, so a step's measured figures are the
 * exact sum of its windows' {@link #measuredPart()}. In <b>version 1</b> every sample, failed ones included, is in
 * the histogram and the percentiles, {@code qps} counts the statements of all samples, and the added fields are
 * absent; {@link #whole()} and {@link #measuredPart()} read both versions.
 *
 * <p>Percentiles come from HdrHistograms ({@link LatencyHistograms}: µs, 3 significant digits), which travel along so
 * any consumer can re-merge windows exactly. Immutable.
 *
 * @param op                  op name, or {@link #ALL_OPS} for the step's transactions of every kind
 * @param windowStartEpochMs  inclusive
 * @param windowEndEpochMs    exclusive
 * @param count               samples completed in the window, successful and failed
 * @param errors              samples with an error status
 * @param errorsByClass       errors by {@link io.tailstream.schemas.block.SampleStatus#label()}
 * @param queries             statements executed by all those samples
 * @param warmupCount         samples flagged warm-up
 * @param lateCount           samples that arrived after the window closed and were counted here only
 * @param qps                 version 2: statements of successful samples per second of window length (version 1:
 *                            of all samples)
 * @param tps                 successful transactions per second of window length
 * @param meanMicros          mean latency of the successful samples, µs (version 1: of all samples)
 * @param histogram           successful samples' latencies (version 1: all samples'), compressed HdrHistogram,
 *                            base64 ({@link LatencyHistograms#toBase64}); present even when empty
 * @param version             {@link #VERSION} for this contract; 1 for events without the field
 * @param okQueries           statements that succeeded, as sysbench counts them: every statement of a successful
 *                            sample and all but the failing last one of a failed sample (0 in version 1: unknown)
 * @param errorsPerSecond     failed samples per second of window length
 * @param p9999Micros         P99.99 of the successful samples
 * @param errorHistogram      failed samples' latencies, same encoding; null when none failed
 * @param measured            the measured (not warm-up) samples of a window that holds both warm-up and measured
 *                            samples ({@code 0 < warmupCount < count}); null otherwise: a window with
 *                            {@code warmupCount == 0} is wholly measured, one with {@code warmupCount == count}
 *                            wholly warm-up
 */
public record WindowStats(
        String runId,
        int stepId,
        String op,
        long windowStartEpochMs,
        long windowEndEpochMs,
        long count,
        long errors,
        Map<String, Long> errorsByClass,
        long queries,
        long warmupCount,
        long lateCount,
        double qps,
        double tps,
        double meanMicros,
        long p50Micros,
        long p90Micros,
        long p95Micros,
        long p99Micros,
        long p999Micros,
        long maxMicros,
        String histogram,
        int version,
        long okQueries,
        double errorsPerSecond,
        long p9999Micros,
        String errorHistogram,
        WindowPart measured) {

    /** The op name of the scope that merges all ops of a step. */
    public static final String ALL_OPS = "*";
    /** The version this contract writes. */
    public static final int VERSION = 2;

    public WindowStats {
        // sorted, so the JSON is the same on every run (an immutable map's order is not)
        errorsByClass = errorsByClass == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(errorsByClass));
        version = version <= 0 ? 1 : version;
        if (measured != null && measured.count() != count - warmupCount) {
            throw new IllegalArgumentException("window " + scopeKey(runId, stepId, op) + " @" + windowStartEpochMs
                    + ": measured part counts " + measured.count() + " samples, but count - warmupCount is "
                    + (count - warmupCount));
        }
    }

    /** A version-1 window, as aggregators before version 2 wrote it (every sample in the histogram). */
    public WindowStats(String runId, int stepId, String op, long windowStartEpochMs, long windowEndEpochMs, long count,
                       long errors, Map<String, Long> errorsByClass, long queries, long warmupCount, long lateCount,
                       double qps, double tps, double meanMicros, long p50Micros, long p90Micros, long p95Micros,
                       long p99Micros, long p999Micros, long maxMicros, String histogram) {
        this(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, count, errors, errorsByClass, queries,
                warmupCount, lateCount, qps, tps, meanMicros, p50Micros, p90Micros, p95Micros, p99Micros, p999Micros,
                maxMicros, histogram, 1, 0, 0, 0, null, null);
    }

    /**
     * A version-2 window computed from its counters and histograms; the one place its figures are derived.
     *
     * @param count      samples, successful and failed
     * @param errors     failed samples
     * @param successful successful samples' latencies
     * @param failed     failed samples' latencies, or null if none failed
     * @param measured   the measured samples when the window mixes warm-up and measured ones, else null
     */
    public static WindowStats of(String runId, int stepId, String op, long windowStartEpochMs, long windowEndEpochMs,
                                 long count, long errors, Map<String, Long> errorsByClass, long queries,
                                 long okQueries, Histogram successful, Histogram failed, long warmupCount,
                                 long lateCount, WindowPart measured) {
        double seconds = (windowEndEpochMs - windowStartEpochMs) / 1000.0;
        LatencyFigures f = LatencyFigures.of(successful);
        return new WindowStats(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, count, errors, errorsByClass,
                queries, warmupCount, lateCount, okQueries / seconds, (count - errors) / seconds, f.meanMicros(),
                f.p50Micros(), f.p90Micros(), f.p95Micros(), f.p99Micros(), f.p999Micros(), f.maxMicros(),
                LatencyHistograms.toBase64(successful), VERSION, okQueries, errors / seconds, f.p9999Micros(),
                WindowPart.encodeNonEmpty(failed), measured);
    }

    /**
     * A version-1 window computed from one histogram of every sample (failed ones included) and counters, as
     * aggregators before version 2 computed it; for tests and tools that stand in for them.
     */
    public static WindowStats ofVersion1(String runId, int stepId, String op, long windowStartEpochMs,
                                         long windowEndEpochMs, Histogram latencies, long errors,
                                         Map<String, Long> errorsByClass, long queries, long warmupCount,
                                         long lateCount) {
        long count = latencies.getTotalCount();
        double seconds = (windowEndEpochMs - windowStartEpochMs) / 1000.0;
        LatencyFigures f = LatencyFigures.of(latencies);
        return new WindowStats(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, count, errors, errorsByClass,
                queries, warmupCount, lateCount, queries / seconds, (count - errors) / seconds, f.meanMicros(),
                f.p50Micros(), f.p90Micros(), f.p95Micros(), f.p99Micros(), f.p999Micros(), f.maxMicros(),
                LatencyHistograms.toBase64(latencies));
    }

    /**
     * A version-1 window: same as {@link #ofVersion1}, under the name it had before version 2.
     *
     * @deprecated the aggregator writes version 2 ({@link #of(String, int, String, long, long, long, long, Map, long,
     *             long, Histogram, Histogram, long, long, WindowPart)}); use {@link #ofVersion1} to stand in for an
     *             older one
     */
    @Deprecated
    public static WindowStats of(String runId, int stepId, String op, long windowStartEpochMs, long windowEndEpochMs,
                                 Histogram latencies, long errors, Map<String, Long> errorsByClass, long queries,
                                 long warmupCount, long lateCount) {
        return ofVersion1(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, latencies, errors, errorsByClass,
                queries, warmupCount, lateCount);
    }

    /**
     * Every sample of the window as a part. For a version-1 window the failed samples' latencies were never kept
     * apart: they are in {@code histogram}, and {@code okQueries} is taken as {@code queries}.
     */
    public WindowPart whole() {
        if (version < VERSION) {
            return new WindowPart(count, errors, errorsByClass, queries, queries, count == 0 ? null : histogram, null);
        }
        return new WindowPart(count, errors, errorsByClass, queries, okQueries,
                count - errors == 0 ? null : histogram, errorHistogram);
    }

    /**
     * The window's measured (not warm-up) samples: {@link #measured()} if the window mixes both, the whole window if
     * it has no warm-up sample, else none. A step's measured figures are the sum of its windows' measured parts
     * (late corrections included). A version-1 window mixing both (which version 1 could not split) counts as
     * warm-up, as version-1 consumers treated it.
     */
    public WindowPart measuredPart() {
        if (measured != null) {
            return measured;
        }
        return warmupCount == 0 ? whole() : WindowPart.EMPTY;
    }

    /** Samples that succeeded: {@code count - errors}. */
    public long successful() {
        return count - errors;
    }

    /** The record key of a window's scope: {@code runId/stepId/op}. */
    public String scopeKey() {
        return scopeKey(runId, stepId, op);
    }

    public static String scopeKey(String runId, int stepId, String op) {
        return runId + "/" + stepId + "/" + op;
    }
}
