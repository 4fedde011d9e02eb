package io.tailstream.schemas.event;

import java.util.List;

/**
 * A step of a run shared by several load generators starts without every expected producer: a producer waited the
 * join timeout for the others' {@link ProducerReady} and goes on with those that were ready. Whichever comes first
 * in the control topic decides the step for every producer: this event, or the {@code ProducerReady} that completes
 * the expected number. A producer that is not among {@code participants} skips the step.
 *
 * @param stepId         the step
 * @param startAtEpochMs when the step starts, ms since the epoch (the publisher's clock)
 * @param participants   the producers that run the step, sorted
 * @param missing        producers known to the run (their {@code run_started} was read) that were not ready, sorted;
 *                       expected producers never seen are counted in {@code unseen}
 * @param unseen         expected producers of which nothing was read
 */
public record StepGo(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        long startAtEpochMs,
        List<String> participants,
        List<String> missing,
        int unseen) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "step_go";

    public StepGo {
        participants = participants == null ? List.of() : List.copyOf(participants);
        missing = missing == null ? List.of() : List.copyOf(missing);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
