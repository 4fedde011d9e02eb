package io.tailstream.schemas.event;

/**
 * A producer finished its run. The counts let every consumer prove it saw each block exactly once.
 *
 * @param blocksSent   blocks sent in the run, markers included; block sequences are 0..blocksSent-1
 * @param samplesSent  samples sent in the run
 * @param outcome      {@code completed}, or {@code failed: <reason>}
 */
public record RunEnded(
        String runId,
        long atEpochMs,
        String producerId,
        long blocksSent,
        long samplesSent,
        String outcome) implements ControlEvent {}
