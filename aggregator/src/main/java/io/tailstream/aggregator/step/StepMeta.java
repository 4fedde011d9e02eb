package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.WindowStats;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What stage 3 remembers about a step across its scopes; JSON in a change-logged store. Immutable.
 *
 * @param ops            op scopes seen (without {@code "*"})
 * @param blocksReceived sample blocks received for the step (data, heartbeats, end-of-step markers)
 * @param producers      producers that announced the step ({@code StepStarted}) or ended it
 * @param blocksSent     blocks each producer reported sent ({@code StepEnded.blocksSent}); its keys are the producers
 *                       that reported their end
 * @param clientBound    a producer reported itself client-bound during the step
 * @param bounds         each producer's exact measurement bounds ({@code StepEnded} version 3), by producer
 * @param ends           end-of-step ticks received, by scope op ({@code "*"} included): one per producer home
 *                       partition's tick group, the same number for every scope of the step once all arrived
 * @param firstEndAtMs   wall clock when the first scope of the step ended, -1 before
 * @param awaiting       a scope of the step ended and its summary waits to be published
 */
public record StepMeta(String runId, int stepId, Set<String> ops, long blocksReceived, Set<String> producers,
                       Map<String, Long> blocksSent, boolean clientBound, Map<String, Bounds> bounds,
                       Map<String, Integer> ends, long firstEndAtMs, boolean awaiting) {

    public StepMeta {
        ops = ops == null ? Set.of() : new TreeSet<>(ops);
        producers = producers == null ? Set.of() : new TreeSet<>(producers);
        blocksSent = blocksSent == null ? Map.of() : new TreeMap<>(blocksSent);
        bounds = bounds == null ? Map.of() : new TreeMap<>(bounds);
        ends = ends == null ? Map.of() : new TreeMap<>(ends);
    }

    public static StepMeta start(String runId, int stepId) {
        return new StepMeta(runId, stepId, Set.of(), 0, Set.of(), Map.of(), false, Map.of(), Map.of(), -1, false);
    }

    /**
     * A producer's measurement bounds, µs since the epoch.
     *
     * @param startMicros {@code StepEnded.measureStartEpochMicros}
     * @param endMicros   {@code StepEnded.measureEndEpochMicros}
     */
    public record Bounds(long startMicros, long endMicros) {}

    StepMeta withOp(String op) {
        if (WindowStats.ALL_OPS.equals(op) || ops.contains(op)) {
            return this;
        }
        Set<String> next = new TreeSet<>(ops);
        next.add(op);
        return new StepMeta(runId, stepId, next, blocksReceived, producers, blocksSent, clientBound, bounds, ends,
                firstEndAtMs, awaiting);
    }

    StepMeta withBlocks(long received) {
        return received == 0 ? this : new StepMeta(runId, stepId, ops, blocksReceived + received, producers,
                blocksSent, clientBound, bounds, ends, firstEndAtMs, awaiting);
    }

    StepMeta withProducer(String producerId) {
        if (producers.contains(producerId)) {
            return this;
        }
        Set<String> next = new TreeSet<>(producers);
        next.add(producerId);
        return new StepMeta(runId, stepId, ops, blocksReceived, next, blocksSent, clientBound, bounds, ends,
                firstEndAtMs, awaiting);
    }

    StepMeta withStepEnded(StepEnded e) {
        Map<String, Long> sent = new TreeMap<>(blocksSent);
        sent.put(e.producerId(), e.blocksSent());
        Map<String, Bounds> b = new TreeMap<>(bounds);
        if (e.measureStartEpochMicros() != null && e.measureEndEpochMicros() != null) {
            b.put(e.producerId(), new Bounds(e.measureStartEpochMicros(), e.measureEndEpochMicros()));
        } else {
            b.remove(e.producerId());
        }
        return new StepMeta(runId, stepId, ops, blocksReceived, producers, sent, clientBound, b, ends, firstEndAtMs,
                awaiting).withProducer(e.producerId());
    }

    StepMeta withClientBound() {
        return clientBound ? this : new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent, true,
                bounds, ends, firstEndAtMs, awaiting);
    }

    StepMeta withEnd(String op, long nowMs) {
        Map<String, Integer> next = new TreeMap<>(ends);
        next.merge(op, 1, Integer::sum);
        return new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent, clientBound, bounds, next,
                firstEndAtMs < 0 ? nowMs : firstEndAtMs, awaiting);
    }

    StepMeta withAwaiting(boolean now) {
        return now == awaiting ? this : new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent,
                clientBound, bounds, ends, firstEndAtMs, now);
    }

    /** Every producer that started the step has reported its end (and at least one did). */
    public boolean allEnded() {
        return !blocksSent.isEmpty() && blocksSent.keySet().containsAll(producers);
    }

    /** End-of-step ticks received for a scope. */
    public int endsOf(String op) {
        return ends.getOrDefault(op, 0);
    }

    /**
     * Blocks sent by the step's producers that never arrived; -1 while unknown (no {@code StepEnded} yet from
     * every producer that started the step, or none at all). Negative would mean blocks counted twice, which
     * exactly-once processing rules out; it is reported as is rather than hidden.
     */
    public long missingBlocks() {
        if (!allEnded()) {
            return -1;
        }
        long sent = blocksSent.values().stream().mapToLong(Long::longValue).sum();
        return sent - blocksReceived;
    }

    /**
     * The step's exact measured span: the earliest measurement start to the latest end over its producers, when every
     * producer that started the step reported both ({@code StepEnded} version 3); else null.
     */
    public Bounds exactSpan() {
        if (!allEnded() || !bounds.keySet().containsAll(producers)) {
            return null;
        }
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (Bounds b : bounds.values()) {
            start = Math.min(start, b.startMicros());
            end = Math.max(end, b.endMicros());
        }
        return new Bounds(start, Math.max(start, end));
    }
}
