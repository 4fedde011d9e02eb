package io.tailstream.producer.emit;

import io.tailstream.schemas.event.ControlEvent;
import java.util.List;

/**
 * Where a run's samples and control events go. One sink per run and producer. Thread safe.
 */
public interface SampleSink extends AutoCloseable {

    /** The producer id every block and event carries. */
    String producerId();

    /**
     * Sends a control event: returns when it is acknowledged, or (a spooling sink, the broker slow or away) when it
     * is spooled behind the earlier ones, to be delivered in order; {@link #close()} waits for it.
     */
    void publish(ControlEvent event);

    /** What the spool did in the run so far, or null when this sink does not spool. */
    default SpoolingTransport.SpoolStats spoolStats() {
        return null;
    }

    /** What the spool holds now, or null when this sink does not spool. */
    default SpoolingTransport.SpoolNow spoolNow() {
        return null;
    }

    /** Most bytes the spool held at once since the previous call (a step's peak); 0 when this sink does not spool. */
    default long takeSpoolHighWaterBytes() {
        return 0;
    }

    /**
     * Starts emitting a step's samples: heartbeats begin, and workers take writers from the returned emission.
     *
     * @param ops      the step's op names, carried by every block
     * @param openLoop samples carry an intended start
     */
    StepEmission beginStep(int stepId, List<String> ops, boolean openLoop);

    /** Blocks sent in the run so far (sequence numbers assigned), markers included. */
    long blocksSent();

    /** Samples acknowledged in the run so far. */
    long samplesSent();

    /** Blocks sealed or handed over and not yet acknowledged: the emission's backlog (0 when unknown). */
    default long backlogBlocks() {
        return 0;
    }

    /**
     * True if the named thread is this sink's (its emitter, its Kafka client's I/O threads, its spool's threads):
     * their CPU is the load generator's.
     */
    default boolean ownsThread(String threadName) {
        return false;
    }

    /** Flushes and releases the connection; waits for outstanding acknowledgements. */
    @Override
    void close();

    /** A sink that discards everything: emission off. */
    static SampleSink noop(String producerId) {
        return new NoopSampleSink(producerId);
    }
}
