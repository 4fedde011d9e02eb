package io.tailstream.schemas.event;

/**
 * A producer finished a step.
 *
 * @param samplesSent  samples of this step the producer handed to Kafka (acknowledged)
 * @param blocksSent   blocks of this step, markers included
 * @param errors       samples with an error status
 * @param outcome      {@code completed}, or {@code failed: <reason>}
 */
public record StepEnded(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        long samplesSent,
        long blocksSent,
        long errors,
        String outcome) implements ControlEvent {}
