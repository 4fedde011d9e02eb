package io.tailstream.producer;

import io.tailstream.producer.driver.StepResult;
import java.util.List;

/**
 * What a run measured and sent, and how it ended; when it did not run to its end, {@link #steps()} ends with the
 * failed or interrupted step's partial result (its {@link StepResult#outcome()} says why). Immutable.
 *
 * @param runId       the run
 * @param planName    the plan's name
 * @param producerId  the producer that ran it
 * @param steps       per-step results in run order
 * @param blocksSent  blocks the run sent, markers included (sequences 0..blocksSent-1)
 * @param samplesSent samples Kafka acknowledged
 * @param outcome     {@code completed}, {@code failed: <target, step and reason>} or {@code interrupted: <reason>},
 *                    as the run's {@code RunEnded} says it
 */
public record RunResult(
        String runId,
        String planName,
        String producerId,
        List<StepResult> steps,
        long blocksSent,
        long samplesSent,
        String outcome) {

    public RunResult {
        steps = List.copyOf(steps);
        java.util.Objects.requireNonNull(outcome, "outcome");
    }

    /** True if every step of the plan ran to its end. */
    public boolean completed() {
        return StepResult.COMPLETED.equals(outcome);
    }
}
