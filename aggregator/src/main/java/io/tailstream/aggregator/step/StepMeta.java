package io.tailstream.aggregator.step;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What stage 3 remembers about a step across its scopes; JSON in a change-logged store.
 *
 * @param ops            op scopes seen (without {@code "*"})
 * @param blocksReceived sample blocks received for the step (data, heartbeats, end-of-step markers)
 * @param producers      producers that announced the step ({@code StepStarted})
 * @param blocksSent     blocks each producer reported sent ({@code StepEnded.blocksSent})
 * @param clientBound    a producer reported itself client-bound during the step
 */
public record StepMeta(String runId, int stepId, Set<String> ops, long blocksReceived, Set<String> producers,
                       Map<String, Long> blocksSent, boolean clientBound) {

    public StepMeta {
        ops = ops == null ? Set.of() : new TreeSet<>(ops);
        producers = producers == null ? Set.of() : new TreeSet<>(producers);
        blocksSent = blocksSent == null ? Map.of() : new TreeMap<>(blocksSent);
    }

    public static StepMeta start(String runId, int stepId) {
        return new StepMeta(runId, stepId, Set.of(), 0, Set.of(), Map.of(), false);
    }

    /**
     * Blocks sent by the step's producers that never arrived; -1 while unknown (no {@code StepEnded} yet from
     * every producer that started the step, or none at all). Negative would mean blocks counted twice, which
     * exactly-once processing rules out; it is reported as is rather than hidden.
     */
    public long missingBlocks() {
        if (blocksSent.isEmpty() || !blocksSent.keySet().containsAll(producers)) {
            return -1;
        }
        long sent = blocksSent.values().stream().mapToLong(Long::longValue).sum();
        return sent - blocksReceived;
    }
}
