package io.tailstream.schemas.event;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Counters and latency histograms of a subset of a window's samples: in {@link WindowStats#measured()} the samples
 * of the measurement phase (warm-up flag clear) of a window that mixes warm-up and measured samples. The same shape
 * describes any part of a window ({@link WindowStats#whole()}, {@link WindowStats#measuredPart()}), so parts of many
 * windows add up to a step's measured figures exactly: counters by addition, histograms by merging. Immutable.
 *
 * @param count          samples
 * @param errors         samples with an error status
 * @param errorsByClass  errors by {@link io.tailstream.schemas.block.SampleStatus#label()}
 * @param queries        statements of all those samples (BEGIN/COMMIT included)
 * @param okQueries      statements of the successful samples
 * @param histogram      successful samples' latencies (µs), compressed HdrHistogram, base64
 *                       ({@link LatencyHistograms#toBase64}); null when there is none
 * @param errorHistogram failed samples' latencies (µs), same encoding; null when there is none
 */
public record WindowPart(long count, long errors, Map<String, Long> errorsByClass, long queries, long okQueries,
                         String histogram, String errorHistogram) {

    /** No samples. */
    public static final WindowPart EMPTY = new WindowPart(0, 0, Map.of(), 0, 0, null, null);

    public WindowPart {
        // sorted, so the JSON is the same on every run (an immutable map's order is not)
        errorsByClass = errorsByClass == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(errorsByClass));
        if (count < 0 || errors < 0 || errors > count) {
            throw new IllegalArgumentException("window part: need 0 <= errors <= count, was errors " + errors
                    + " of count " + count);
        }
        if (queries < 0 || okQueries < 0 || okQueries > queries) {
            throw new IllegalArgumentException("window part: need 0 <= okQueries <= queries, was okQueries "
                    + okQueries + " of queries " + queries);
        }
    }

    /**
     * A part from its histograms; {@code count} and {@code errors} are given (not taken from the histograms) so a
     * caller restoring data whose failed latencies were never kept apart can still state the exact counts.
     *
     * @param successful successful samples' latencies, or null
     * @param failed     failed samples' latencies, or null
     */
    public static WindowPart of(long count, long errors, Map<String, Long> errorsByClass, long queries,
                                long okQueries, Histogram successful, Histogram failed) {
        return new WindowPart(count, errors, errorsByClass, queries, okQueries, encodeNonEmpty(successful),
                encodeNonEmpty(failed));
    }

    /** Samples that succeeded: {@code count - errors}. */
    public long successful() {
        return count - errors;
    }

    /** A fresh copy of {@link #histogram()}, empty when null. */
    public Histogram successfulLatencies() {
        return histogram == null ? LatencyHistograms.create() : LatencyHistograms.fromBase64(histogram);
    }

    /** A fresh copy of {@link #errorHistogram()}, empty when null. */
    public Histogram failedLatencies() {
        return errorHistogram == null ? LatencyHistograms.create() : LatencyHistograms.fromBase64(errorHistogram);
    }

    static String encodeNonEmpty(Histogram h) {
        return h == null || h.getTotalCount() == 0 ? null : LatencyHistograms.toBase64(h);
    }
}
