package io.tailstream.aggregator.topology;

import java.util.List;

/**
 * An end-of-step marker seen by a stage-1 task whose ticks have not been sent yet (stored, so a restart keeps it).
 *
 * @param tickAtEpochMs stream time the ticks carry: the end of the marker's window plus grace; sent once the wall
 *                      clock has reached it
 * @param markers       end-of-step markers of the step read by this task (one per producer), counted as received
 *                      blocks when the ticks are sent
 * @param producers     the producers whose markers these are (the ticks carry their ends to stage 2); empty in
 *                      entries stored before they were kept
 */
record PendingStepEnd(String runId, int stepId, List<String> ops, long tickAtEpochMs, long markers,
                      List<String> producers) {

    PendingStepEnd {
        ops = List.copyOf(ops);
        producers = producers == null ? List.of() : List.copyOf(producers);
    }
}
