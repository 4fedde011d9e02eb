package io.tailstream.schemas.event;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A step's figures over its measurement phase, emitted by the aggregator on
 * {@link io.tailstream.schemas.Topics#SUMMARIES} (key {@code runId/stepId/op}); consumers keep the last record per
 * key. Immutable.
 *
 * <p><b>Version 3</b> (this one) adds the step's producers: {@code threads} (their sum), {@code producers} (one
 * {@link ProducerPart} each) and {@code missingProducers} (those that started the step and had not reported their end
 * when the summary was published); absent in older events, so a version-2 reader ignores them and a version-3 reader
 * reads a version-2 event with them null.
 *
 * <p><b>Version 2</b> ({@code version} absent or 0 in JSON means version 1) is exact: the measured samples
 * are those with the warm-up flag clear (the sum of the windows' {@link WindowStats#measuredPart()}, late corrections
 * included), and the rates divide by the producers' exact measured span ({@code StepEnded.measureEndEpochMicros -
 * measureStartEpochMicros}; with several producers the earliest start to the latest end). {@code qps} and {@code tps}
 * count successful work, errors have their own rate, and the latency figures describe successful samples; failed
 * samples' latencies are reported apart ({@code error*}). It is published once the step is complete (see
 * {@code complete}) and again only when a late correction, a producer's end or the block accounting changes it.
 * <b>Version 1</b> divided by whole windows from the first window without warm-up samples, counted failed samples'
 * statements in {@code qps} and their latencies in the percentiles; the fields added in version 2 are absent.
 *
 * @param op                      {@link WindowStats#ALL_OPS} or one op
 * @param measureStartEpochMs     start of the measured span, ms ({@code measureStartEpochMicros / 1000}, floor)
 * @param measureEndEpochMs       end of the measured span, ms (floor)
 * @param count                   measured samples, successful and failed
 * @param errors                  measured samples with an error status
 * @param errorsByClass           errors by status label
 * @param queries                 statements of all measured samples
 * @param qps                     statements of successful measured samples per second of the measured span
 * @param tps                     successful measured transactions per second of the measured span
 * @param meanMicros              mean latency of the successful measured samples
 * @param stallCount              stalls detected in the measurement phase
 * @param stallMs                 total stalled time
 * @param qpsSlopePctPerHour      macro trend: least-squares slope of whole measured windows' QPS, % of their mean
 *                                QPS per hour; null when the step has too few whole measured windows to mean
 *                                something (see {@code trendWindows})
 * @param qpsCv                   micro jitter: coefficient of variation of whole measured windows' QPS; null as above
 * @param clientBound             the producer flagged the step client-bound (client CPU over its threshold)
 * @param lateCount               samples that arrived after their window closed
 * @param missingBlocks           blocks the step's producers sent that never arrived; -1 while unknown (a producer
 *                                has not reported its end) and in op summaries (blocks belong to the step)
 * @param histogram               successful measured samples' merged HdrHistogram, base64
 * @param atEpochMs               when the aggregator emitted this record (wall clock)
 * @param version                 {@link #VERSION}; 1 for events without the field
 * @param okQueries               statements that succeeded in the measured samples (a failed sample's all but its
 *                                failing last one, as sysbench counts them)
 * @param errorsPerSecond         failed measured samples per second of the measured span
 * @param p9999Micros             P99.99 of the successful measured samples
 * @param measuredSeconds         the measured span, seconds: what every rate divides by
 * @param measureStartEpochMicros start of the measured span, µs
 * @param measureEndEpochMicros   end of the measured span, µs
 * @param spanSource              {@link #SPAN_PRODUCER}: every producer of the step reported its exact measurement
 *                                bounds ({@code StepEnded} version 3); {@link #SPAN_WINDOWS}: not all did, the span
 *                                is the first window holding measured samples to the end of the last one
 * @param complete                the step's scope ended (end-of-step ticks closed its last window), every producer
 *                                that started the step reported its end, and every block they sent was received:
 *                                the figures are final unless a late sample arrives. False when published after the
 *                                aggregator stopped waiting (a producer killed before its {@code StepEnded}, or
 *                                blocks lost: see {@code missingBlocks})
 * @param trendWindows            whole measured windows behind {@code qpsSlopePctPerHour} and {@code qpsCv} (windows
 *                                holding warm-up samples, the step's first window and windows reaching past the
 *                                measured span are not whole)
 * @param errorMeanMicros         mean latency of the failed measured samples (0 when none)
 * @param errorP99Micros          P99 of the failed measured samples
 * @param errorMaxMicros          largest latency of a failed measured sample
 * @param errorHistogram          failed measured samples' merged HdrHistogram, base64; null when none failed
 * @param threads                 threads of every producer of the step together (Σ {@code StepStarted.threads});
 *                                null before version 3
 * @param producers               each producer of the step, by producer id; null before version 3
 * @param missingProducers        producers that started the step ({@code StepStarted}) but had not reported its end
 *                                ({@code StepEnded}) when this was published: the summary is then incomplete and
 *                                lacks their samples still in flight; empty when none, null before version 3
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
        Double qpsSlopePctPerHour,
        Double qpsCv,
        boolean clientBound,
        long lateCount,
        long missingBlocks,
        String histogram,
        long atEpochMs,
        int version,
        long okQueries,
        double errorsPerSecond,
        long p9999Micros,
        double measuredSeconds,
        long measureStartEpochMicros,
        long measureEndEpochMicros,
        String spanSource,
        boolean complete,
        int trendWindows,
        double errorMeanMicros,
        long errorP99Micros,
        long errorMaxMicros,
        String errorHistogram,
        Integer threads,
        List<ProducerPart> producers,
        List<String> missingProducers) {

    /** The version this contract writes. */
    public static final int VERSION = 3;
    /** {@link #spanSource()}: the producers' exact measurement bounds. */
    public static final String SPAN_PRODUCER = "producer";
    /** {@link #spanSource()}: whole windows, for producers that do not report their bounds. */
    public static final String SPAN_WINDOWS = "windows";

    public StepSummary {
        // sorted, so the JSON is the same on every run (an immutable map's order is not)
        errorsByClass = errorsByClass == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(errorsByClass));
        producers = producers == null ? null : List.copyOf(producers);
        missingProducers = missingProducers == null ? null : List.copyOf(missingProducers);
        version = version <= 0 ? 1 : version;
        if (version == 1) {
            // version 1 had no exact span: the one it divided by is the whole windows' (the derived fields are absent
            // from its JSON)
            measuredSeconds = (measureEndEpochMs - measureStartEpochMs) / 1000.0;
            measureStartEpochMicros = measureStartEpochMs * 1000;
            measureEndEpochMicros = measureEndEpochMs * 1000;
            spanSource = SPAN_WINDOWS;
        }
        if (count < 0 || errors < 0 || errors > count) {
            throw new IllegalArgumentException("step summary " + runId + "/" + stepId + "/" + op
                    + ": need 0 <= errors <= count, was errors " + errors + " of count " + count);
        }
    }

    /** A summary without the producers' breakdown (version 2, as aggregators before version 3 wrote it). */
    public StepSummary(String runId, int stepId, String op, long measureStartEpochMs, long measureEndEpochMs,
                       long count, long errors, Map<String, Long> errorsByClass, long queries, double qps, double tps,
                       double meanMicros, long p50Micros, long p90Micros, long p95Micros, long p99Micros,
                       long p999Micros, long maxMicros, int stallCount, long stallMs, Double qpsSlopePctPerHour,
                       Double qpsCv, boolean clientBound, long lateCount, long missingBlocks, String histogram,
                       long atEpochMs, int version, long okQueries, double errorsPerSecond, long p9999Micros,
                       double measuredSeconds, long measureStartEpochMicros, long measureEndEpochMicros,
                       String spanSource, boolean complete, int trendWindows, double errorMeanMicros,
                       long errorP99Micros, long errorMaxMicros, String errorHistogram) {
        this(runId, stepId, op, measureStartEpochMs, measureEndEpochMs, count, errors, errorsByClass, queries, qps, tps,
                meanMicros, p50Micros, p90Micros, p95Micros, p99Micros, p999Micros, maxMicros, stallCount, stallMs,
                qpsSlopePctPerHour, qpsCv, clientBound, lateCount, missingBlocks, histogram, atEpochMs, version,
                okQueries, errorsPerSecond, p9999Micros, measuredSeconds, measureStartEpochMicros,
                measureEndEpochMicros, spanSource, complete, trendWindows, errorMeanMicros, errorP99Micros,
                errorMaxMicros, errorHistogram, null, null, null);
    }

    /** A version-1 summary, as aggregators before version 2 wrote it. */
    public StepSummary(String runId, int stepId, String op, long measureStartEpochMs, long measureEndEpochMs,
                       long count, long errors, Map<String, Long> errorsByClass, long queries, double qps, double tps,
                       double meanMicros, long p50Micros, long p90Micros, long p95Micros, long p99Micros,
                       long p999Micros, long maxMicros, int stallCount, long stallMs, double qpsSlopePctPerHour,
                       double qpsCv, boolean clientBound, long lateCount, long missingBlocks, String histogram,
                       long atEpochMs) {
        this(runId, stepId, op, measureStartEpochMs, measureEndEpochMs, count, errors, errorsByClass, queries, qps, tps,
                meanMicros, p50Micros, p90Micros, p95Micros, p99Micros, p999Micros, maxMicros, stallCount, stallMs,
                qpsSlopePctPerHour, qpsCv, clientBound, lateCount, missingBlocks, histogram, atEpochMs, 1, 0, 0, 0,
                0, 0, 0, null, false, 0, 0, 0, 0, null);
    }

    /** Share of the measurement phase spent in stalls, 0..1. */
    public double stallShare() {
        long measured = measureEndEpochMs - measureStartEpochMs;
        return measured > 0 ? Math.min(1.0, (double) stallMs / measured) : 0;
    }

    /** Successful measured samples: {@code count - errors}. */
    public long successful() {
        return count - errors;
    }

    public String key() {
        return runId + "/" + stepId + "/" + op;
    }

    /**
     * One producer's part of a step (version 3), from its control events: {@code StepStarted} (threads, round trip),
     * {@code StepEnded} (what it sent, its outcome, CPU) and {@code ClientHealth} (client-bound flag). A field the
     * producer's events do not carry (an older producer, or one that never reported its end) is null.
     *
     * @param producerId     the producer
     * @param threads        its threads ({@code StepStarted.threads})
     * @param ended          it reported its end ({@code StepEnded}) before this summary was published
     * @param outcome        {@code StepEnded.outcome}
     * @param samplesSent    {@code StepEnded.samplesSent}
     * @param blocksSent     {@code StepEnded.blocksSent}, markers included
     * @param errors         {@code StepEnded.errors}: its samples with an error status, warm-up included
     * @param clientBound    a {@code ClientHealth} or its {@code StepEnded} flagged it client-bound
     * @param loadGenCpuPct  {@code StepEnded.loadGenCpuPct}
     * @param processCpuPct  {@code StepEnded.processCpuPct}
     * @param rttP50Micros   median round trip to the target before the step ({@code StepStarted.rtt})
     */
    public record ProducerPart(String producerId, Integer threads, boolean ended, String outcome, Long samplesSent,
                               Long blocksSent, Long errors, boolean clientBound, Double loadGenCpuPct,
                               Double processCpuPct, Double rttP50Micros) {}
}
