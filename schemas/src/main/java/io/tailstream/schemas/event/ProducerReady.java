package io.tailstream.schemas.event;

/**
 * A producer of a run shared by several load generators is ready to start a step: its connections are open and its
 * round-trip probe is done. Every producer of the run reads these from the control topic in the same order and
 * decides the step's start from them alone (see {@link StepGo}): once {@code expectedProducers} distinct producers
 * are ready, the step starts at the latest of their {@code atEpochMs} plus {@link #START_DELAY_MS}, with each of them.
 *
 * @param stepId            the step it is ready for
 * @param expectedProducers how many producers the run was started with ({@code producers} of the plan)
 * @param threads           the threads the plan gives the step
 * @param splitThreads      whether the producers share those threads out (true) or each runs them all
 * @param host              the load generator's host name
 */
public record ProducerReady(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        int expectedProducers,
        int threads,
        boolean splitThreads,
        String host) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "producer_ready";

    /**
     * Between the last producer's readiness and the agreed start: time for every producer to read the decision from
     * the control topic, so that they start at the same instant rather than when each learns of it.
     */
    public static final long START_DELAY_MS = 1_000;

    @Override
    public String type() {
        return TYPE;
    }
}
