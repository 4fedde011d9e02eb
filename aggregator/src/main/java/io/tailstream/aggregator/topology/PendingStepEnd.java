package io.tailstream.aggregator.topology;

import java.util.List;

/**
 * An end-of-step marker seen by a stage-1 task whose ticks have not been sent yet (stored, so a restart keeps it).
 *
 * @param tickAtEpochMs stream time the ticks carry: the end of the marker's window plus grace; sent once the wall
 *                      clock has reached it
 */
record PendingStepEnd(String runId, int stepId, List<String> ops, long tickAtEpochMs) {

    PendingStepEnd {
        ops = List.copyOf(ops);
    }
}
