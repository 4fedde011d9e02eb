package io.tailstream.schemas.event;

/**
 * A control event of one step: its start and end, the client's health and the server's counters during it, the
 * agreement on its start, the checks of the data after it.
 */
sealed interface StepEvent extends ControlEvent
        permits StepStarted, StepEnded, ClientHealth, ServerCounters, ProducerReady, StepGo, DataChecked {

    /** The step, numbered within the run. */
    int stepId();

    @Override
    default Integer stepIdOrNull() {
        return stepId();
    }
}
