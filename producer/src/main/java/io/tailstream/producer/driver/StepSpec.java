package io.tailstream.producer.driver;

import io.tailstream.producer.workload.Workload;
import io.tailstream.schemas.block.SampleStatus;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * One step of a run: a workload at a thread count against one target, for a warm-up and a measurement phase.
 * Immutable.
 *
 * @param stepId          the step's id in the run
 * @param targetName      the target's name (for messages)
 * @param workload        what each transaction does
 * @param threads         worker threads (closed loop, no think time)
 * @param round           1-based round
 * @param warmup          warm-up phase; its samples are flagged, not dropped
 * @param measure         measurement phase after warm-up
 * @param intervalSeconds console interval lines every this many seconds; 0 for none
 * @param ignoredErrors   error classes that are counted and the transaction skipped (sysbench's
 *                        {@code --mysql-ignore-errors}); any other error stops the step
 * @param transactions    measured transactions (all threads, failed ones included) after which the measurement
 *                        ends, if {@code measure} has not ended it first; null for time only
 * @param rate            open loop: total intended transactions per second, split evenly over the threads; null
 *                        for closed loop
 * @param firstWorker     the index of this producer's first worker among all workers of the step (0 alone; in a run
 *                        shared by several producers, the workers of the producers before it): a workload that binds
 *                        workers to its data (TPC-C's terminals) numbers them over every producer
 * @param allWorkers      the step's workers over every producer ({@code threads} alone)
 */
public record StepSpec(
        int stepId,
        String targetName,
        Workload workload,
        int threads,
        int round,
        Duration warmup,
        Duration measure,
        int intervalSeconds,
        Set<SampleStatus> ignoredErrors,
        Long transactions,
        Double rate,
        int firstWorker,
        int allWorkers) {

    public StepSpec {
        Objects.requireNonNull(workload, "workload");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
        requirePhases(warmup, measure, intervalSeconds);
        ignoredErrors = Set.copyOf(ignoredErrors);
        if (transactions != null && transactions < 1) {
            throw new IllegalArgumentException("transactions must be >= 1, was " + transactions);
        }
        if (rate != null && (!(rate > 0) || rate.isInfinite() || rate / threads > 1e9)) {
            throw new IllegalArgumentException("rate must be > 0 and at most 1e9 per thread, was " + rate);
        }
        if (firstWorker < 0 || firstWorker + threads > allWorkers) {
            throw new IllegalArgumentException("workers " + firstWorker + " to " + (firstWorker + threads - 1)
                    + " are not among the step's " + allWorkers);
        }
    }

    /** The step of one producer: its workers are all the step's. */
    public StepSpec(int stepId, String targetName, Workload workload, int threads, int round, Duration warmup,
                    Duration measure, int intervalSeconds, Set<SampleStatus> ignoredErrors, Long transactions,
                    Double rate) {
        this(stepId, targetName, workload, threads, round, warmup, measure, intervalSeconds, ignoredErrors,
                transactions, rate, 0, threads);
    }

    /**
     * Refuses a warm-up that is missing or negative, a measurement that is missing or not positive, and a negative
     * console interval, naming the value: the checks a step and a plan of steps share.
     */
    public static void requirePhases(Duration warmup, Duration measure, int intervalSeconds) {
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warmup must be >= 0, was " + warmup);
        }
        if (measure == null || measure.isNegative() || measure.isZero()) {
            throw new IllegalArgumentException("measure must be > 0, was " + measure);
        }
        if (intervalSeconds < 0) {
            throw new IllegalArgumentException("intervalSeconds must be >= 0, was " + intervalSeconds);
        }
    }

    /** A closed-loop step measured by time. */
    public StepSpec(int stepId, String targetName, Workload workload, int threads, int round, Duration warmup,
                    Duration measure, int intervalSeconds, Set<SampleStatus> ignoredErrors) {
        this(stepId, targetName, workload, threads, round, warmup, measure, intervalSeconds, ignoredErrors, null,
                null);
    }

    /** Open loop: samples carry their intended start. */
    public boolean openLoop() {
        return rate != null;
    }

    /**
     * Open loop: each worker's interval between intended starts, ns ({@code threads / rate} seconds); 0 in closed
     * loop.
     */
    public long workerIntervalNanos() {
        return rate == null ? 0 : Math.max(1, Math.round(threads * 1e9 / rate));
    }

    /** "step 3 (target 'h2-mem', oltp_read_write, 8 threads, round 1)". */
    public String describe() {
        return "step " + stepId + " (target '" + targetName + "', " + workload.name() + ", " + threads
                + (threads == 1 ? " thread" : " threads") + ", round " + round + ")";
    }
}
