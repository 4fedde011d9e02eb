package io.tailstream.producer.driver;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A step's figures over its measurement phase (warm-up excluded), as the console summary and {@code --json} show
 * them. Throughput counts work done: transactions and statements that succeeded, as sysbench's transaction and
 * read/write/other counters do; failed transactions are counted apart ({@link #errors}, {@link Failures}) and
 * their latencies never enter the percentiles. Latencies in milliseconds, rates per second of the measured span
 * ({@link Phases}). Immutable.
 *
 * @param stepId          the step's id
 * @param target          target name
 * @param workload        workload name
 * @param threads         worker threads
 * @param round           1-based round
 * @param tps             successful transactions per second of the measured span
 * @param qps             successful statements per second of the measured span: every statement of a successful
 *                        transaction, and of a failed one every statement before the one that failed
 * @param avgMs           mean latency of the successful measured transactions
 * @param p95Ms           95th percentile latency of the successful measured transactions
 * @param p99Ms           99th percentile latency of the successful measured transactions
 * @param maxMs           maximum latency of the successful measured transactions
 * @param transactions    successful transactions measured
 * @param errors          failed transactions measured (every error class, ignored ones included)
 * @param queries         successful statements measured (see {@code qps})
 * @param measureSeconds  the measured span, {@code (measureEndEpochMicros - measureStartEpochMicros) / 1e6}: the
 *                        exact span every rate here is divided by
 * @param samplesRecorded samples the workers wrote, warm-up and failed transactions included: what the emission
 *                        should deliver
 * @param samplesSent     samples Kafka acknowledged (0 when emission is off)
 * @param blocksSent      blocks Kafka acknowledged for the step, markers included
 * @param backpressureMs  time workers waited for a free block buffer
 * @param openLoop        the step ran open loop ({@code rate} set): the {@code co*} figures are measured from each
 *                        transaction's intended start
 * @param coAvgMs         mean latency from the intended start (coordinated omission corrected) of the successful
 *                        measured transactions; in closed loop the same as {@code avgMs}
 * @param coP95Ms         95th percentile latency from the intended start
 * @param coP99Ms         99th percentile latency from the intended start
 * @param coMaxMs         maximum latency from the intended start
 * @param clientBound     the load generator's CPU reached the client CPU limit during the step: the figures may
 *                        measure the client rather than the database
 * @param maxClientCpuPct highest load-generator CPU (% of the machine) in the step's health intervals, the figure
 *                        the client-bound flag is decided on, or -1 if none was taken
 * @param failures        the failed measured transactions by class, and their latency
 * @param reconnects      times a worker re-established a lost connection during the step (warm-up included)
 * @param phases          the step's exact phase boundaries
 * @param loadGenCpuPct   mean CPU of the load generator's own threads over the step, % of the machine, or -1 if
 *                        not measured
 * @param processCpuPct   mean CPU of the whole process over the step, % of the machine, or -1 if not measured
 * @param outcome         {@code completed}, {@code failed: <reason>} or {@code interrupted: <reason>}
 */
public record StepResult(
        int stepId,
        String target,
        String workload,
        int threads,
        int round,
        double tps,
        double qps,
        double avgMs,
        double p95Ms,
        double p99Ms,
        double maxMs,
        long transactions,
        long errors,
        long queries,
        double measureSeconds,
        long samplesRecorded,
        long samplesSent,
        long blocksSent,
        double backpressureMs,
        boolean openLoop,
        double coAvgMs,
        double coP95Ms,
        double coP99Ms,
        double coMaxMs,
        boolean clientBound,
        double maxClientCpuPct,
        Failures failures,
        long reconnects,
        Phases phases,
        double loadGenCpuPct,
        double processCpuPct,
        String outcome) {

    /** The outcome of a step that ran to its end. */
    public static final String COMPLETED = "completed";

    public StepResult {
        Objects.requireNonNull(failures, "failures");
        Objects.requireNonNull(phases, "phases");
        Objects.requireNonNull(outcome, "outcome");
    }

    /**
     * The failed measured transactions.
     *
     * @param byClass      failed transactions by error class label ({@code deadlock}, {@code duplicate_key}, ...),
     *                     sorted by label; only classes that occurred
     * @param avgMs        their mean latency (0 when none)
     * @param maxMs        their largest latency (0 when none)
     */
    public record Failures(Map<String, Long> byClass, double avgMs, double maxMs) {

        /** No failed transaction. */
        public static final Failures NONE = new Failures(Map.of(), 0, 0);

        public Failures {
            byClass = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(byClass));
        }

        /** Failed transactions in total. */
        public long count() {
            return byClass.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The step's phase boundaries, epoch µs, converted from the monotonic clock with the step's one anchor: the
     * workers were released at {@code startEpochMicros}; a sample belongs to the measurement when it started (in
     * open loop: was intended to start) at or after {@code measureStartEpochMicros}, to the warm-up when before;
     * every measured sample starts before {@code measureEndEpochMicros} and ends at or before it.
     */
    public record Phases(long startEpochMicros, long measureStartEpochMicros, long measureEndEpochMicros) {

        public Phases {
            if (measureStartEpochMicros < startEpochMicros || measureEndEpochMicros < measureStartEpochMicros) {
                throw new IllegalArgumentException("phases out of order: start " + startEpochMicros
                        + ", measure start " + measureStartEpochMicros + ", measure end " + measureEndEpochMicros);
            }
        }

        /** The measured span, µs. */
        public long measuredMicros() {
            return measureEndEpochMicros - measureStartEpochMicros;
        }
    }

    /** True if the step ran to its end. */
    public boolean completed() {
        return COMPLETED.equals(outcome);
    }

    /** Failed measured transactions per second of the measured span (sysbench's {@code err/s}). */
    public double errorsPerSecond() {
        return measureSeconds > 0 ? errors / measureSeconds : 0;
    }

    /** This result with the emission's counts. */
    public StepResult withEmission(long samples, long blocks, double backpressure) {
        return new StepResult(stepId, target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                transactions, errors, queries, measureSeconds, samplesRecorded, samples, blocks, backpressure,
                openLoop, coAvgMs, coP95Ms, coP99Ms, coMaxMs, clientBound, maxClientCpuPct, failures, reconnects,
                phases, loadGenCpuPct, processCpuPct, outcome);
    }

    /**
     * This result with the client CPU seen during the step.
     *
     * @param bound          the step was client-bound
     * @param maxLoadGenPct  highest load-generator CPU of its health intervals, or -1
     * @param meanLoadGenPct mean load-generator CPU over the step, or -1
     * @param meanProcessPct mean process CPU over the step, or -1
     */
    public StepResult withClientCpu(boolean bound, double maxLoadGenPct, double meanLoadGenPct,
                                    double meanProcessPct) {
        return new StepResult(stepId, target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                transactions, errors, queries, measureSeconds, samplesRecorded, samplesSent, blocksSent,
                backpressureMs, openLoop, coAvgMs, coP95Ms, coP99Ms, coMaxMs, bound, maxLoadGenPct, failures,
                reconnects, phases, meanLoadGenPct, meanProcessPct, outcome);
    }

    /** This result with another outcome ({@code failed: ...}, {@code interrupted: ...}). */
    public StepResult withOutcome(String newOutcome) {
        return new StepResult(stepId, target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                transactions, errors, queries, measureSeconds, samplesRecorded, samplesSent, blocksSent,
                backpressureMs, openLoop, coAvgMs, coP95Ms, coP99Ms, coMaxMs, clientBound, maxClientCpuPct,
                failures, reconnects, phases, loadGenCpuPct, processCpuPct, newOutcome);
    }

    /** One summary line. */
    public String summary() {
        String line = String.format(Locale.ROOT,
                "%s %s thds: %d round %d: tps: %.2f qps: %.2f lat (ms) avg: %.2f p95: %.2f p99: %.2f max: %.2f"
                        + " errors: %d", target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                errors);
        if (errors > 0) {
            line += String.format(Locale.ROOT, " (err/s: %.2f; %s; failed lat (ms) avg: %.2f max: %.2f)",
                    errorsPerSecond(), failures.byClass().entrySet().stream()
                            .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
                    failures.avgMs(), failures.maxMs());
        }
        if (reconnects > 0) {
            line += " reconnects: " + reconnects;
        }
        if (openLoop) {
            line += String.format(Locale.ROOT,
                    " | from intended start (ms) avg: %.2f p95: %.2f p99: %.2f max: %.2f", coAvgMs, coP95Ms, coP99Ms,
                    coMaxMs);
        }
        if (clientBound) {
            line += String.format(Locale.ROOT, " | CLIENT-BOUND (load generator CPU up to %.1f%%)",
                    maxClientCpuPct);
        }
        if (!completed()) {
            line += " | " + outcome;
        }
        return line;
    }
}
