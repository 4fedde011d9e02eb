package io.tailstream.producer.driver;

/**
 * A step's figures over its measurement phase (warm-up excluded), as the console summary and {@code --json} show
 * them. Latencies in milliseconds, rates per second of the measurement phase. Immutable.
 *
 * @param stepId          the step's id
 * @param target          target name
 * @param workload        workload name
 * @param threads         worker threads
 * @param round           1-based round
 * @param tps             successful transactions per second
 * @param qps             statements (of all transactions) per second
 * @param avgMs           mean latency of all measured transactions, failed ones included
 * @param p95Ms           95th percentile latency
 * @param p99Ms           99th percentile latency
 * @param maxMs           maximum latency
 * @param transactions    successful transactions measured
 * @param errors          failed transactions measured
 * @param queries         statements measured
 * @param measureSeconds  length of the measurement phase as run (until the last transaction ended)
 * @param samplesRecorded samples the workers wrote, warm-up included: what the emission should deliver
 * @param samplesSent     samples Kafka acknowledged (0 when emission is off)
 * @param blocksSent      blocks Kafka acknowledged for the step, markers included
 * @param backpressureMs  time workers waited for a free block buffer
 * @param openLoop        the step ran open loop ({@code rate} set): the {@code co*} figures are measured from each
 *                        transaction's intended start
 * @param coAvgMs         mean latency from the intended start (coordinated omission corrected); in closed loop the
 *                        same as {@code avgMs}
 * @param coP95Ms         95th percentile latency from the intended start
 * @param coP99Ms         99th percentile latency from the intended start
 * @param coMaxMs         maximum latency from the intended start
 * @param clientBound     this process's CPU exceeded the client CPU limit during the step: the figures may measure
 *                        the client rather than the database
 * @param maxClientCpuPct highest process CPU (% of the machine) seen in the step's one-second health samples, or
 *                        -1 if none was taken
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
        double maxClientCpuPct) {

    /** This result with the emission's counts. */
    public StepResult withEmission(long samples, long blocks, double backpressure) {
        return new StepResult(stepId, target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                transactions, errors, queries, measureSeconds, samplesRecorded, samples, blocks, backpressure,
                openLoop, coAvgMs, coP95Ms, coP99Ms, coMaxMs, clientBound, maxClientCpuPct);
    }

    /** This result with the client health seen during the step. */
    public StepResult withClientHealth(boolean bound, double maxCpuPct) {
        return new StepResult(stepId, target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                transactions, errors, queries, measureSeconds, samplesRecorded, samplesSent, blocksSent,
                backpressureMs, openLoop, coAvgMs, coP95Ms, coP99Ms, coMaxMs, bound, maxCpuPct);
    }

    /** One summary line. */
    public String summary() {
        String line = String.format(java.util.Locale.ROOT,
                "%s %s thds: %d round %d: tps: %.2f qps: %.2f lat (ms) avg: %.2f p95: %.2f p99: %.2f max: %.2f"
                        + " errors: %d", target, workload, threads, round, tps, qps, avgMs, p95Ms, p99Ms, maxMs,
                errors);
        if (openLoop) {
            line += String.format(java.util.Locale.ROOT,
                    " | from intended start (ms) avg: %.2f p95: %.2f p99: %.2f max: %.2f", coAvgMs, coP95Ms, coP99Ms,
                    coMaxMs);
        }
        if (clientBound) {
            line += String.format(java.util.Locale.ROOT, " | CLIENT-BOUND (process CPU up to %.1f%%)",
                    maxClientCpuPct);
        }
        return line;
    }
}
