package io.tailstream.aggregator.topology;

import java.util.Set;
import java.util.TreeSet;

/**
 * What stage 2 knows about the producers of one scope whose windows are still open: those whose blocks it merged
 * (heartbeats start with the step, so every producer of the step is known within a heartbeat of its start) and those
 * whose end-of-step tick arrived. The scope's last windows close once every known producer ended, or when the wait
 * after the first tick is over. JSON in a change-logged store, so a restart keeps it. Immutable.
 *
 * @param runId         the scope's run
 * @param stepId        the scope's step
 * @param op            the scope's op ({@code "*"} included)
 * @param members       producers whose blocks went into the scope's partials
 * @param ended         producers whose end-of-step tick arrived
 * @param tickAtEpochMs the latest tick's stream time (the last ended producer's last window end plus grace), -1 before
 *                      a tick
 * @param tickBlocks    blocks the ticks counted (end-of-step markers), handed to stage 3 when the scope closes
 * @param firstTickAtMs wall clock when the first tick arrived, -1 before
 */
record ScopeProducers(String runId, int stepId, String op, Set<String> members, Set<String> ended, long tickAtEpochMs,
                      long tickBlocks, long firstTickAtMs) {

    ScopeProducers {
        members = members == null ? Set.of() : new TreeSet<>(members);
        ended = ended == null ? Set.of() : new TreeSet<>(ended);
    }

    static ScopeProducers start(String runId, int stepId, String op) {
        return new ScopeProducers(runId, stepId, op, Set.of(), Set.of(), -1, 0, -1);
    }

    /** This with more members; this itself if they are known already. */
    ScopeProducers withMembers(Set<String> producers) {
        if (members.containsAll(producers)) {
            return this;
        }
        Set<String> next = new TreeSet<>(members);
        next.addAll(producers);
        return new ScopeProducers(runId, stepId, op, next, ended, tickAtEpochMs, tickBlocks, firstTickAtMs);
    }

    /** This after a tick carrying the end of {@code producers}, at stream time {@code tickAt}. */
    ScopeProducers withTick(Set<String> producers, long tickAt, long blocks, long nowMs) {
        Set<String> nextMembers = new TreeSet<>(members);
        nextMembers.addAll(producers);
        Set<String> nextEnded = new TreeSet<>(ended);
        nextEnded.addAll(producers);
        return new ScopeProducers(runId, stepId, op, nextMembers, nextEnded, Math.max(tickAtEpochMs, tickAt),
                tickBlocks + blocks, firstTickAtMs < 0 ? nowMs : firstTickAtMs);
    }

    /** Every known producer ended. */
    boolean allEnded() {
        return ended.containsAll(members);
    }

    /** Known producers whose end has not arrived. */
    Set<String> missing() {
        Set<String> out = new TreeSet<>(members);
        out.removeAll(ended);
        return out;
    }
}
