package io.tailstream.schemas.event;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Low-volume events on {@link io.tailstream.schemas.Topics#CONTROL}, JSON with a {@code "type"} discriminator.
 * Together they describe a run: what was planned and against which targets, when each step started and ended, how
 * many blocks and samples each producer sent (so consumers can prove they saw all of them), the client's health and
 * the target's own counters while it ran, the checks of its data after a step. When several load generators share
 * a run, {@link ProducerReady} and {@link StepGo} are how they agree on each step's start.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RunStarted.class, name = RunStarted.TYPE),
        @JsonSubTypes.Type(value = StepStarted.class, name = StepStarted.TYPE),
        @JsonSubTypes.Type(value = StepEnded.class, name = StepEnded.TYPE),
        @JsonSubTypes.Type(value = ClientHealth.class, name = ClientHealth.TYPE),
        @JsonSubTypes.Type(value = ServerCounters.class, name = ServerCounters.TYPE),
        @JsonSubTypes.Type(value = RunEnded.class, name = RunEnded.TYPE),
        @JsonSubTypes.Type(value = ProducerReady.class, name = ProducerReady.TYPE),
        @JsonSubTypes.Type(value = StepGo.class, name = StepGo.TYPE),
        @JsonSubTypes.Type(value = DataChecked.class, name = DataChecked.TYPE),
})
public sealed interface ControlEvent permits RunStarted, RunEnded, StepEvent {

    /** The run the event belongs to (also the record key). */
    String runId();

    /** When the producer emitted the event, ms since the epoch. */
    long atEpochMs();

    /** The producer that emitted it. */
    String producerId();

    /** Its JSON {@code "type"} name, e.g. {@code "step_started"}: the subtype's {@code TYPE}. */
    String type();

    /** The step it belongs to; null for the events of a whole run ({@code run_started}, {@code run_ended}). */
    default Integer stepIdOrNull() {
        return null;
    }
}
