package io.tailstream.schemas.block;

/**
 * Receives the samples of a block as primitives, so decoding allocates nothing per sample.
 */
@FunctionalInterface
public interface SampleVisitor {

    /**
     * One transaction.
     *
     * @param startEpochMicros         when the transaction started (µs since the epoch)
     * @param latencyMicros            service time: completion minus start, µs
     * @param intendedStartEpochMicros open loop: when the transaction should have started (≤ start); closed loop:
     *                                 equal to {@code startEpochMicros}
     * @param opIndex                  index into {@link BlockHeader#ops()}
     * @param status                   outcome
     * @param queries                  statements the transaction executed (BEGIN/COMMIT included)
     * @param warmup                   the sample belongs to the step's warm-up phase
     */
    void sample(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                SampleStatus status, int queries, boolean warmup);
}
