package io.tailstream.producer;

import io.tailstream.producer.driver.StepResult;
import java.util.List;

/**
 * What a run measured and sent. Immutable.
 *
 * @param runId       the run
 * @param planName    the plan's name
 * @param producerId  the producer that ran it
 * @param steps       per-step results in run order
 * @param blocksSent  blocks the run sent, markers included (sequences 0..blocksSent-1)
 * @param samplesSent samples Kafka acknowledged
 */
public record RunResult(
        String runId,
        String planName,
        String producerId,
        List<StepResult> steps,
        long blocksSent,
        long samplesSent) {

    public RunResult {
        steps = List.copyOf(steps);
    }
}
