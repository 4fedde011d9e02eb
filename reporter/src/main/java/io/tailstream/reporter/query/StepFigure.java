package io.tailstream.reporter.query;

import java.util.List;
import java.util.Map;

/**
 * Exact figures of one (target, workload, threads) over the measurement phase, computed from the raw samples
 * (warm-up samples excluded) of the steps it pools: every step of the key that completed, or one step that did not
 * (failed, interrupted or never ended), whose partial figures stand apart. Immutable.
 *
 * <p>Throughput counts work done: {@code qps} and {@code tps} count the statements and transactions of successful
 * samples ({@code status = 'ok'}) per measured second; failed samples are counted as errors ({@code errorsPerSecond},
 * {@code errorsByClass}) and their latencies are described apart ({@code failed}), never in {@code ok}.
 *
 * @param runId           the run, or null when the figures pool several runs
 * @param target          target name
 * @param workload        workload name
 * @param threads         client threads (concurrency)
 * @param steps           the steps pooled, oldest first
 * @param outcome         null when the figures pool completed steps; else the outcome of the one step they describe
 *                        ({@code failed: ...}, {@code interrupted: ...}, or null-outcome steps as {@code not ended})
 * @param samples         measured transactions, failed ones included
 * @param errors          measured transactions with a status other than {@code ok}
 * @param errorsByClass   errors per status ({@code deadlock}, {@code connection_lost}, ...), sorted by status
 * @param seconds         measured time summed over the steps: {@code measure_end_us - measure_start_us} of the
 *                        {@code steps} dataset where known ({@code exactSpan}), else the span of the step's measured
 *                        samples (first start to last completion)
 * @param exactSpan       every step's span came from its recorded measurement boundaries
 * @param queries         statements of the successful measured transactions
 * @param newOrders       completed New-Orders among the measured samples ({@link TpccSamples#COMPLETED_NEW_ORDER}):
 *                        what tpmC counts; 0 for a workload that is not TPC-C
 * @param qps             {@code queries / seconds}
 * @param tps             successful transactions / {@code seconds}
 * @param errorsPerSecond {@code errors / seconds}
 * @param ok              latencies of the successful transactions, or null if there was none
 * @param failed          latencies of the failed transactions, or null if there was none
 * @param readMeanUs      mean latency of successful {@code read} ops (YCSB RAL), or null
 * @param writeMeanUs     mean latency of successful write ops (YCSB WAL: {@code update}, {@code insert},
 *                        {@code write}, {@code read_modify_write}), or null
 * @param perStep         the same figures of each pooled step alone, oldest first (empty in those figures
 *                        themselves); their {@code ok} and {@code failed} carry no slowest-0.1% share
 */
public record StepFigure(
        String runId,
        String target,
        String workload,
        int threads,
        List<StepRef> steps,
        String outcome,
        long samples,
        long errors,
        Map<String, Long> errorsByClass,
        double seconds,
        boolean exactSpan,
        long queries,
        long newOrders,
        double qps,
        double tps,
        double errorsPerSecond,
        Latencies ok,
        Latencies failed,
        Double readMeanUs,
        Double writeMeanUs,
        List<StepFigure> perStep) {

    public StepFigure {
        steps = List.copyOf(steps);
        errorsByClass = Map.copyOf(errorsByClass);
        perStep = List.copyOf(perStep);
    }

    /** The outcome shown for a step that has none (its producers never ended it). */
    public static final String NOT_ENDED = "not ended";

    /**
     * One step pooled into the figures.
     *
     * @param outcome the step's outcome, or null if it never ended
     * @param fromUs  start of its measured span, epoch µs: {@code measure_start_us}, or the first measured
     *                sample's start where the archive has no exact span
     * @param toUs    end of its measured span: {@code measure_end_us}, or the last measured sample's completion
     */
    public record StepRef(String runId, int stepId, int round, String outcome, long fromUs, long toUs) {}

    /**
     * Nearest-rank statistics of a set of latencies ({@code quantile_disc}: the value at rank
     * {@code ceil(p * count)}), µs.
     *
     * @param count            latencies described
     * @param meanUs           mean
     * @param slowestCount     {@code floor(count / 1000)}: the slowest 0.1% of the transactions, i.e. those ranked
     *                         above the P99.9 rank
     * @param slowestSharePct  share (%) of the latency time (sum of latencies) those slowest transactions carry;
     *                         null when {@code slowestCount} is 0 (fewer than 1,000 transactions)
     */
    public record Latencies(long count, double meanUs, long p50Us, long p95Us, long p99Us, long p999Us, long p9999Us,
                            long maxUs, long slowestCount, Double slowestSharePct) {}

    /** Measured transactions that succeeded. */
    public long okSamples() {
        return samples - errors;
    }

    /** Steps pooled. */
    public int rounds() {
        return steps.size();
    }

    /** Completed New-Orders per measured minute ({@code newOrders * 60 / seconds}; 0 without a measured span). */
    public double tpmC() {
        return seconds > 0 ? newOrders * 60.0 / seconds : 0;
    }

    /** True for TPC-C, whose throughput is judged in {@link #tpmC()} rather than QPS. */
    public boolean tpcc() {
        return TpccSamples.isTpcc(workload);
    }

    /** P99 of the successful transactions, µs (0 when none succeeded). */
    public long p99Us() {
        return ok == null ? 0 : ok.p99Us();
    }

    /** True if the figures pool completed steps (not the partial figures of an unfinished one). */
    public boolean completed() {
        return outcome == null;
    }

    /** What steps of two runs are matched on: target, workload and threads. */
    public record Key(String target, String workload, int threads) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = workload.compareTo(o.workload);
            if (c == 0) {
                c = target.compareTo(o.target);
            }
            return c != 0 ? c : Integer.compare(threads, o.threads);
        }

        /** True for TPC-C, whose throughput is judged in tpmC. */
        public boolean tpcc() {
            return TpccSamples.isTpcc(workload);
        }

        @Override
        public String toString() {
            return target + "/" + workload + "/" + threads + " threads";
        }
    }

    public Key key() {
        return new Key(target, workload, threads);
    }
}
