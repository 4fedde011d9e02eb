package io.tailstream.producer.group;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Agrees with the other producers of a shared run when a step starts, who runs it and with how many threads. A
 * producer alone uses {@link #alone()}, which decides at once.
 */
public interface StepCoordinator extends AutoCloseable {

    /**
     * This producer's part in a step.
     *
     * @param runs           whether this producer runs the step
     * @param startAtEpochMs the agreed start, ms since the epoch; null: now (a producer alone)
     * @param participants   the producers that run the step, sorted; empty for a producer alone
     * @param threads        this producer's threads
     * @param reason         why this producer does not run the step; null when it does
     */
    record Start(boolean runs, Long startAtEpochMs, List<String> participants, int threads, String reason) {
        public Start {
            participants = participants == null ? List.of() : List.copyOf(participants);
        }

        static Start skip(String reason) {
            return new Start(false, null, List.of(), 0, reason);
        }
    }

    /**
     * Says this producer is ready for the step and waits until the step is decided.
     *
     * @param threads the step's threads in the plan
     * @param stopped polled while waiting: true ends the wait with a {@link Start} that does not run
     * @throws GroupException when the other producers run a different plan, or the control topic cannot be read
     */
    Start awaitStart(int stepId, int threads, BooleanSupplier stopped);

    @Override
    void close();

    /** A producer that runs alone: every step starts at once with the plan's threads. */
    static StepCoordinator alone() {
        return new StepCoordinator() {
            @Override
            public Start awaitStart(int stepId, int threads, BooleanSupplier stopped) {
                return new Start(true, null, List.of(), threads, null);
            }

            @Override
            public void close() {
            }
        };
    }
}
