package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Counters and the merged latency histogram of several windows of one scope: how roll-ups and step summaries are
 * computed. Histograms are merged bucket by bucket, never percentiles averaged, so the merged percentiles equal
 * those of one histogram fed every sample.
 *
 * @param histogram   merged HdrHistogram, base64 ({@link LatencyHistograms#toBase64}); null while empty
 * @param windows     windows merged (late corrections included)
 */
public record WindowAccumulator(long errors, Map<String, Long> errorsByClass, long queries, long warmupCount,
                                long lateCount, long windows, String histogram) {

    public WindowAccumulator {
        errorsByClass = errorsByClass == null ? Map.of() : Map.copyOf(errorsByClass);
    }

    public static WindowAccumulator empty() {
        return new WindowAccumulator(0, Map.of(), 0, 0, 0, 0, null);
    }

    /** This plus one window whose histogram is already decoded ({@code latencies}). */
    public WindowAccumulator plus(WindowStats w, Histogram latencies) {
        Histogram merged = latencies();
        merged.add(latencies);
        Map<String, Long> byClass = new TreeMap<>(errorsByClass);
        w.errorsByClass().forEach((k, v) -> byClass.merge(k, v, Long::sum));
        return new WindowAccumulator(errors + w.errors(), byClass, queries + w.queries(),
                warmupCount + w.warmupCount(), lateCount + w.lateCount(), windows + 1,
                LatencyHistograms.toBase64(merged));
    }

    /** A fresh copy of the merged histogram. */
    public Histogram latencies() {
        return histogram == null ? LatencyHistograms.create() : LatencyHistograms.fromBase64(histogram);
    }

    /** Samples merged. */
    public long count() {
        return histogram == null ? 0 : latencies().getTotalCount();
    }

    /** The merged figures as one window of the given bounds. */
    public WindowStats toWindowStats(String runId, int stepId, String op, long startMs, long endMs) {
        return WindowStats.of(runId, stepId, op, startMs, endMs, latencies(), errors, errorsByClass, queries,
                warmupCount, lateCount);
    }
}
