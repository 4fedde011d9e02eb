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

    /** Latency measured from the intended start (coordinated-omission corrected); service time in closed loop. */
    public long responseMicros() {
        return endEpochMicros() - intendedStartEpochMicros;
    }
}
