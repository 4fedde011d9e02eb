package io.tailstream.schemas.event;

import java.util.Map;

/**
 * A step's figures over its measurement phase, emitted by the aggregator when the step ends, on
 * {@link io.tailstream.schemas.Topics#SUMMARIES} (key {@code runId/stepId}). Percentiles come from the merged
 * histogram of the measured windows (never averaged); soak metrics from the per-window QPS series.
 *
 * @param op                  {@link WindowStats#ALL_OPS} or one op
 * @param measureStartEpochMs first measured window's start (warm-up windows excluded)
 * @param measureEndEpochMs   last measured window's end
 * @param count               measured samples
 * @param errors              measured samples with an error status
 * @param errorsByClass       errors by status label
 * @param queries             statements of the measured samples
 * @param qps                 queries per second of measurement
 * @param tps                 successful transactions per second of measurement
 * @param stallCount          stalls detected in the measurement phase
 * @param stallMs             total stalled time
 * @param qpsSlopePctPerHour  macro trend: least-squares slope of window QPS, % of mean QPS per hour
 * @param qpsCv               micro jitter: coefficient of variation of window QPS
 * @param clientBound         the producer flagged the step client-bound (client CPU over its threshold)
 * @param lateCount           samples that arrived after their window closed
 * @param missingBlocks       block sequences never received (gaps), over the step's producers
 * @param histogram           merged compressed HdrHistogram, base64
 */
public record StepSummary(
        String runId,
        int stepId,
        String op,
        long measureStartEpochMs,
        long measureEndEpochMs,
        long count,
        long errors,
        Map<String, Long> errorsByClass,
        long queries,
        double qps,
        double tps,
        double meanMicros,
        long p50Micros,
        long p90Micros,
        long p95Micros,
        long p99Micros,
        long p999Micros,
        long maxMicros,
        int stallCount,
        long stallMs,
        double qpsSlopePctPerHour,
        double qpsCv,
        boolean clientBound,
        long lateCount,
        long missingBlocks,
        String histogram,
        long atEpochMs) {

    public StepSummary {
        errorsByClass = errorsByClass == null ? Map.of() : Map.copyOf(errorsByClass);
    }

    /** Share of the measurement phase spent in stalls, 0..1. */
    public double stallShare() {
        long measured = measureEndEpochMs - measureStartEpochMs;
        return measured > 0 ? Math.min(1.0, (double) stallMs / measured) : 0;
    }

    public String key() {
        return runId + "/" + stepId + "/" + op;
    }
}
