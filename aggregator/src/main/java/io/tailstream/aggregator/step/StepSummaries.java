package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyFigures;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.HdrHistogram.Histogram;

/**
 * The {@link StepSummary} of a scope: its figures, and when it is published.
 *
 * <h2>Measured figures</h2>
 * A summary adds up every window's {@link WindowStats#measuredPart()} (the samples whose warm-up flag is clear, late
 * corrections included; {@link #measure}) and divides by the producers' exact measured span
 * ({@link StepMeta#exactSpan()}); producers that do not report their bounds get the span of the windows holding
 * measured samples instead.
 *
 * <h2>Publication</h2>
 * A scope's summary is published when the step is complete: the scope ended (its end-of-step ticks closed its last
 * window; for an op, as many ticks as the {@code "*"} scope got), every producer that started the step reported its
 * end ({@code StepEnded}) and every block they sent was counted ({@code missingBlocks == 0}), so its first record
 * already holds the final figures. A producer that never reports (killed) or blocks that never arrive do not hold it
 * forever: {@code stepEndWait} after the first producer's end-of-step tick (stage 2 waits as long before it closes the
 * step's windows without the missing producers) it is published with {@code complete = false}, naming the producers
 * whose {@code StepEnded} is missing. Every summary carries the step's producers: their threads summed, and each one's
 * part as its control events describe it.
 * After that it is published again only when its figures change (a late correction, a producer's late end, the block
 * accounting, the client-bound flag): a fingerprint of the last record published is kept.
 *
 * <p>Times in ms since the epoch (wall clock for the wait), spans in µs. Immutable and thread safe.
 */
final class StepSummaries {

    private final StallSeries series;
    private final long stepEndWaitMs;

    /**
     * @param stepEndWait how long after a step's first scope ended its summaries wait for every producer's end and
     *                    every block before they are published as incomplete
     */
    StepSummaries(StallSeries series, Duration stepEndWait) {
        this.series = series;
        this.stepEndWaitMs = stepEndWait.toMillis();
    }

    /**
     * A scope's summary to publish.
     *
     * @param scope   the scope's next state
     * @param stalls  the declared stalls of its held windows and of its stall rules finishing (at the first
     *                publication; none after it), in order
     * @param summary the summary, or null when it is the one last published (emission time left out)
     */
    record Publication(ScopeState scope, List<Stall> stalls, StepSummary summary) {}

    /** Adds a window's measured part to the scope's sum; every window, on time or late. */
    static ScopeState measure(ScopeState s, WindowStats w, PartSum.Decoded measured) {
        long first = s.firstMeasuredMs();
        long lastEnd = s.lastMeasuredEndMs();
        if (measured.part().count() > 0) {
            first = first < 0 ? w.windowStartEpochMs() : Math.min(first, w.windowStartEpochMs());
            lastEnd = Math.max(lastEnd, w.windowEndEpochMs());
        }
        return s.withMeasured(PartSum.plus(s.measuredSum(), measured), first, lastEnd, s.lateCount() + w.lateCount());
    }

    /** The step's scopes in the order their summaries are published: the ops, then {@code "*"}. */
    static List<String> order(StepMeta meta) {
        // ops first: when "*" finishes its stall rules, affectedOps reads the ops' final stalls
        List<String> order = new ArrayList<>(meta.ops());
        order.add(WindowStats.ALL_OPS);
        return order;
    }

    /** The step's summaries waited {@code stepEndWait} since its first scope ended (wall clock {@code nowMs}). */
    boolean waitedOut(StepMeta meta, long nowMs) {
        return meta.firstEndAtMs() >= 0 && nowMs - meta.firstEndAtMs() >= stepEndWaitMs;
    }

    long stepEndWaitMs() {
        return stepEndWaitMs;
    }

    /**
     * An ended scope's summary as of {@code nowMs}, or null while it waits (never published, the step not complete
     * and not waited out).
     */
    Publication publish(ScopeState s, StepMeta meta, boolean waitedOut, long nowMs) {
        boolean complete = complete(s.op(), meta);
        if (s.published() == null && !complete && !waitedOut) {
            return null;
        }
        List<Stall> stalls = List.of();
        if (!s.finalized()) {
            StallSeries.Fed fed = series.finish(s, meta.exactSpan());
            s = fed.scope();
            stalls = fed.stalls();
        }
        StepSummary summary = summary(s, meta, complete, nowMs);
        String fingerprint = fingerprint(summary);
        if (fingerprint.equals(s.published())) {
            return new Publication(s, stalls, null);
        }
        return new Publication(s.publishedAs(fingerprint), stalls, summary);
    }

    /** The scope ended, with as many ticks as the step's "*" scope, and nothing of the step is missing. */
    private static boolean complete(String op, StepMeta meta) {
        return meta.allEnded() && meta.missingBlocks() == 0 && meta.endsOf(op) >= meta.endsOf(WindowStats.ALL_OPS);
    }

    /** The scope's summary (version 2) as of now. */
    private StepSummary summary(ScopeState s, StepMeta meta, boolean complete, long now) {
        WindowPart m = s.measuredSum();
        StepMeta.Bounds span = meta.exactSpan();
        String source = StepSummary.SPAN_PRODUCER;
        if (span == null) {
            source = StepSummary.SPAN_WINDOWS;
            span = s.firstMeasuredMs() < 0 ? new StepMeta.Bounds(0, 0)
                    : new StepMeta.Bounds(s.firstMeasuredMs() * 1000, s.lastMeasuredEndMs() * 1000);
        }
        double seconds = (span.endMicros() - span.startMicros()) / 1e6;
        Histogram ok = m.successfulLatencies();
        LatencyFigures f = LatencyFigures.of(ok);
        LatencyFigures failed = LatencyFigures.of(m.errorHistogram() == null ? null : m.failedLatencies());
        StallDetector detector = series.detector(s.detector());
        return new StepSummary(s.runId(), s.stepId(), s.op(), Math.floorDiv(span.startMicros(), 1000L),
                Math.floorDiv(span.endMicros(), 1000L), m.count(), m.errors(), m.errorsByClass(), m.queries(),
                rate(m.okQueries(), seconds), rate(m.successful(), seconds), f.meanMicros(), f.p50Micros(),
                f.p90Micros(), f.p95Micros(), f.p99Micros(), f.p999Micros(), f.maxMicros(), detector.stallCount(),
                detector.stallMs(), s.trend().slopePctPerHour(), s.trend().cv(), meta.clientBound(), s.lateCount(),
                // blocks belong to the step, not to an op: the "*" summary carries the figure
                WindowStats.ALL_OPS.equals(s.op()) ? meta.missingBlocks() : -1,
                LatencyHistograms.toBase64(ok), now, StepSummary.VERSION, m.okQueries(), rate(m.errors(), seconds),
                f.p9999Micros(), seconds, span.startMicros(), span.endMicros(), source, complete,
                (int) Math.min(Integer.MAX_VALUE, s.trend().n()), failed.meanMicros(), failed.p99Micros(),
                failed.maxMicros(), m.errorHistogram(), meta.threads(), meta.producerParts(),
                meta.missingProducers());
    }

    private static double rate(long n, double seconds) {
        return seconds > 0 ? n / seconds : 0;
    }

    /** Identifies a summary's content, emission time left out: a republication only when this changes. */
    private static String fingerprint(StepSummary summary) {
        String json = Json.writeString(summary).replaceFirst("\"atEpochMs\":-?\\d+", "");
        return UUID.nameUUIDFromBytes(json.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
