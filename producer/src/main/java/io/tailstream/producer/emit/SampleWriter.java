package io.tailstream.producer.emit;

import io.tailstream.schemas.block.SampleStatus;

/**
 * Receives the samples of one worker thread. Owned by that thread: {@link #write} and {@link #flush} must be called
 * from it only.
 */
public interface SampleWriter {

    /**
     * One transaction's sample (µs). Does not allocate and does not wait for Kafka; it waits only if every block
     * buffer of the run is queued for sending (backpressure, counted in {@link StepEmission.StepCounts}).
     */
    void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
               SampleStatus status, int queries, boolean warmup);

    /** Hands over the partial block; called when the worker stops. */
    void flush();
}
