package io.tailstream.schemas.event;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Statistics of one scope (run, step, op) over one time window, as the aggregator emits them on
 * {@link io.tailstream.schemas.Topics#WINDOWS}. A sample counts in the window its transaction <em>completed</em>
 * in (start + latency), the way sysbench counts transactions per report interval.
 *
 * <p>Percentiles come from the window's merged HdrHistogram ({@link LatencyHistograms}: µs, 3 significant
 * digits), which travels along in {@code histogram} so any consumer can re-merge windows exactly. Every sample,
 * failed ones included, is in the histogram (a failure is an outcome with its own latency); TPS counts successful
 * transactions and QPS the statements of all of them, as sysbench does.
 *
 * @param op                  op name, or {@link #ALL_OPS} for the step's transactions of every kind
 * @param windowStartEpochMs  inclusive
 * @param windowEndEpochMs    exclusive
 * @param count               samples completed in the window
 * @param errors              samples with an error status
 * @param errorsByClass       errors by {@link io.tailstream.schemas.block.SampleStatus#label()}
 * @param queries             statements executed by those samples
 * @param warmupCount         samples flagged warm-up
 * @param lateCount           samples that arrived after the window closed and were counted here only
 * @param qps                 queries per second of window length
 * @param tps                 successful transactions per second of window length
 * @param meanMicros          mean latency, µs
 * @param histogram           compressed HdrHistogram, base64 ({@link LatencyHistograms#toBase64})
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
        String histogram) {

    /** The op name of the scope that merges all ops of a step. */
    public static final String ALL_OPS = "*";

    public WindowStats {
        errorsByClass = errorsByClass == null ? Map.of() : Map.copyOf(errorsByClass);
    }

    /**
     * Window stats computed from a window's merged histogram and counters; the one place the figures are derived.
     */
    public static WindowStats of(String runId, int stepId, String op, long windowStartEpochMs, long windowEndEpochMs,
                                 Histogram latencies, long errors, Map<String, Long> errorsByClass, long queries,
                                 long warmupCount, long lateCount) {
        long count = latencies.getTotalCount();
        double seconds = (windowEndEpochMs - windowStartEpochMs) / 1000.0;
        boolean empty = count == 0;
        return new WindowStats(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, count, errors, errorsByClass,
                queries, warmupCount, lateCount,
                queries / seconds,
                (count - errors) / seconds,
                empty ? 0 : latencies.getMean(),
                empty ? 0 : latencies.getValueAtPercentile(50),
                empty ? 0 : latencies.getValueAtPercentile(90),
                empty ? 0 : latencies.getValueAtPercentile(95),
                empty ? 0 : latencies.getValueAtPercentile(99),
                empty ? 0 : latencies.getValueAtPercentile(99.9),
                empty ? 0 : latencies.getMaxValue(),
                LatencyHistograms.toBase64(latencies));
    }

    /** The record key of a window's scope: {@code runId/stepId/op}. */
    public String scopeKey() {
        return scopeKey(runId, stepId, op);
    }

    public static String scopeKey(String runId, int stepId, String op) {
        return runId + "/" + stepId + "/" + op;
    }
}
