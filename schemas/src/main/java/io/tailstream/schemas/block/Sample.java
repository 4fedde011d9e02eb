package io.tailstream.schemas.block;

/**
 * One decoded sample as an object: for tests, the archiver and other places that are not per-sample hot paths.
 * Fields as in {@link SampleVisitor#sample}.
 */
public record Sample(
        long startEpochMicros,
        long latencyMicros,
        long intendedStartEpochMicros,
        int opIndex,
        SampleStatus status,
        int queries,
        boolean warmup) {

    /** Completion time, µs since the epoch: the instant the sample counts at in windows. */
    public long endEpochMicros() {
        return startEpochMicros + latencyMicros;
    }

    /**
     * Statements of this transaction that succeeded, as sysbench's read/write/other counters count them: all of a
     * successful transaction's, all but the last (the one that failed) of a failed transaction's. Throughput (QPS)
     * counts these; {@link #succeededStatements(boolean, int)} is the same rule on plain values.
     */
    public int succeededStatements() {
        return succeededStatements(status == SampleStatus.OK, queries);
    }

    /** The rule of {@link #succeededStatements()} for a transaction that {@code ok} or failed after {@code queries}. */
    public static int succeededStatements(boolean ok, int queries) {
        return ok ? queries : Math.max(0, queries - 1);
    }

    /** Latency measured from the intended start (coordinated-omission corrected); service time in closed loop. */
    public long responseMicros() {
        return endEpochMicros() - intendedStartEpochMicros;
    }
}
