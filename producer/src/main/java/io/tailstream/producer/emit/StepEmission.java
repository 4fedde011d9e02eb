package io.tailstream.producer.emit;

/** The emission of one step. {@link #writer()} is thread safe; {@link #finish()} is called once, by the driver. */
public interface StepEmission {

    /** A writer for one worker thread. */
    SampleWriter writer();

    /**
     * Ends the step after every writer was {@link SampleWriter#flush() flushed}: sends the remaining blocks and the
     * end-of-step markers, and waits until Kafka acknowledged all of them.
     *
     * @throws EmitException if blocks could not be delivered
     */
    StepCounts finish();

    /** Blocks and samples of one step that the broker acknowledged, markers included in blocks. */
    record StepCounts(long samplesSent, long blocksSent, long backpressureNanos) {}
}
