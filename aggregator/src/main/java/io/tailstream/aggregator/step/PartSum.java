package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Sums of {@link WindowPart}s: how roll-ups and step summaries add up windows exactly. Counters add; histograms merge
 * bucket by bucket (never percentiles averaged), so the merged percentiles equal those of one histogram fed every
 * sample. A window's part is decoded once ({@link Decoded}) and added into as many sums as need it.
 *
 * <p>Stateless and thread safe.
 */
final class PartSum {

    private PartSum() {}

    /**
     * A window part with its histograms decoded (null where the part has none).
     *
     * @param successful the successful samples' latencies, or null
     * @param failed     the failed samples' latencies, or null
     */
    record Decoded(WindowPart part, Histogram successful, Histogram failed) {

        static Decoded of(WindowPart part) {
            return new Decoded(part, part.histogram() == null ? null : part.successfulLatencies(),
                    part.errorHistogram() == null ? null : part.failedLatencies());
        }
    }

    /** {@code sum} (null = empty) plus one decoded part. */
    static WindowPart plus(WindowPart sum, Decoded add) {
        WindowPart s = sum == null ? WindowPart.EMPTY : sum;
        WindowPart a = add.part();
        if (a.count() == 0 && a.queries() == 0) {
            return s;
        }
        Map<String, Long> byClass = new TreeMap<>(s.errorsByClass());
        a.errorsByClass().forEach((k, v) -> byClass.merge(k, v, Long::sum));
        return new WindowPart(s.count() + a.count(), s.errors() + a.errors(), byClass, s.queries() + a.queries(),
                s.okQueries() + a.okQueries(), merged(s.histogram(), add.successful()),
                merged(s.errorHistogram(), add.failed()));
    }

    /** The base64 histogram {@code encoded} (null = empty) with {@code add} (null = nothing) merged in. */
    private static String merged(String encoded, Histogram add) {
        if (add == null || add.getTotalCount() == 0) {
            return encoded;
        }
        if (encoded == null) {
            return LatencyHistograms.toBase64(add);
        }
        Histogram h = LatencyHistograms.fromBase64(encoded);
        h.add(add);
        return LatencyHistograms.toBase64(h);
    }
}
