package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What stage 3 remembers about a step across its scopes; JSON in a change-logged store. Immutable.
 *
 * @param ops            op scopes seen (without {@code "*"})
 * @param blocksReceived sample blocks received for the step (data, heartbeats, end-of-step markers)
 * @param producers      producers that announced the step ({@code StepStarted}), were named in another's as agreed
 *                       participants, or ended it
 * @param blocksSent     blocks each producer reported sent ({@code StepEnded.blocksSent}); its keys are the producers
 *                       that reported their end
 * @param clientBound    a producer reported itself client-bound during the step
 * @param bounds         each producer's exact measurement bounds ({@code StepEnded} version 3), by producer
 * @param ends           end-of-step ticks received, by scope op ({@code "*"} included): one per producer home
 *                       partition's tick group, the same number for every scope of the step once all arrived
 * @param firstEndAtMs   wall clock when the first scope of the step ended, -1 before
 * @param awaiting       a scope of the step ended and its summary waits to be published
 * @param parts          each producer's part as its control events describe it, by producer id
 * @param plannedEnds    the earliest its measurement can end by time, by producer id: its {@code StepStarted} time
 *                       plus warm-up and measurement (the workers start after that event is sent)
 */
public record StepMeta(String runId, int stepId, Set<String> ops, long blocksReceived, Set<String> producers,
                       Map<String, Long> blocksSent, boolean clientBound, Map<String, Bounds> bounds,
                       Map<String, Integer> ends, long firstEndAtMs, boolean awaiting,
                       Map<String, StepSummary.ProducerPart> parts, Map<String, Long> plannedEnds) {

    public StepMeta {
        ops = ops == null ? Set.of() : new TreeSet<>(ops);
        producers = producers == null ? Set.of() : new TreeSet<>(producers);
        blocksSent = blocksSent == null ? Map.of() : new TreeMap<>(blocksSent);
        bounds = bounds == null ? Map.of() : new TreeMap<>(bounds);
        ends = ends == null ? Map.of() : new TreeMap<>(ends);
        parts = parts == null ? Map.of() : new TreeMap<>(parts);
        plannedEnds = plannedEnds == null ? Map.of() : new TreeMap<>(plannedEnds);
    }

    public static StepMeta start(String runId, int stepId) {
        return new StepMeta(runId, stepId, Set.of(), 0, Set.of(), Map.of(), false, Map.of(), Map.of(), -1, false,
                Map.of(), Map.of());
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
        return new StepMeta(runId, stepId, plus(ops, op), blocksReceived, producers, blocksSent, clientBound, bounds,
                ends, firstEndAtMs, awaiting, parts, plannedEnds);
    }

    StepMeta withBlocks(long received) {
        return received == 0 ? this : new StepMeta(runId, stepId, ops, blocksReceived + received, producers,
                blocksSent, clientBound, bounds, ends, firstEndAtMs, awaiting, parts, plannedEnds);
    }

    StepMeta withProducer(String producerId) {
        if (producers.contains(producerId)) {
            return this;
        }
        return new StepMeta(runId, stepId, ops, blocksReceived, plus(producers, producerId), blocksSent, clientBound,
                bounds, ends, firstEndAtMs, awaiting, parts, plannedEnds);
    }

    /** A sorted copy of {@code set} with {@code element} added. */
    private static Set<String> plus(Set<String> set, String element) {
        Set<String> next = new TreeSet<>(set);
        next.add(element);
        return next;
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
                awaiting, parts, plannedEnds).withProducer(e.producerId());
    }

    StepMeta withClientBound() {
        return clientBound ? this : new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent, true,
                bounds, ends, firstEndAtMs, awaiting, parts, plannedEnds);
    }

    StepMeta withEnd(String op, long nowMs) {
        Map<String, Integer> next = new TreeMap<>(ends);
        next.merge(op, 1, Integer::sum);
        return new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent, clientBound, bounds, next,
                firstEndAtMs < 0 ? nowMs : firstEndAtMs, awaiting, parts, plannedEnds);
    }

    StepMeta withAwaiting(boolean now) {
        return now == awaiting ? this : new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent,
                clientBound, bounds, ends, firstEndAtMs, now, parts, plannedEnds);
    }

    /**
     * Records a producer's threads and round trip ({@code StepStarted}), and the producers it agreed to run the step
     * with: the step then expects the end of each, also of one that died before its own {@code StepStarted}.
     */
    StepMeta withStarted(StepStarted e) {
        StepSummary.ProducerPart p = part(e.producerId());
        StepMeta next = withPart(new StepSummary.ProducerPart(p.producerId(), e.threads(), p.ended(), p.outcome(),
                p.samplesSent(), p.blocksSent(), p.errors(), p.clientBound(), p.loadGenCpuPct(), p.processCpuPct(),
                e.rtt() == null ? p.rttP50Micros() : Double.valueOf(e.rtt().p50Micros())))
                .withProducer(e.producerId());
        for (String participant : e.participants()) {
            next = next.withProducer(participant);
        }
        long plannedEnd = e.atEpochMs() + e.warmupMs() + e.measureMs();
        if (e.measureMs() <= 0 || plannedEnd == next.plannedEnds.getOrDefault(e.producerId(), -1L)) {
            return next;
        }
        Map<String, Long> ends = new TreeMap<>(next.plannedEnds);
        ends.put(e.producerId(), plannedEnd);
        return new StepMeta(runId, stepId, next.ops, next.blocksReceived, next.producers, next.blocksSent,
                next.clientBound, next.bounds, next.ends, next.firstEndAtMs, next.awaiting, next.parts, ends);
    }

    /**
     * Windows of the step ending at or before this instant (epoch ms) lie inside its measurement unless a producer
     * ends its measurement early (a transaction budget, a stop, a failure): the earliest planned end of the
     * producers that announced the step, less {@code marginMs} for the difference between their clocks and ours;
     * -1 while no producer announced a measurement by time.
     */
    long insideUnlessEarlyEndMs(long marginMs) {
        return plannedEnds.values().stream().mapToLong(Long::longValue).map(v -> v - marginMs).min().orElse(-1);
    }

    /** Records what a producer reports at its end ({@code StepEnded}). */
    StepMeta withEndedPart(StepEnded e) {
        StepSummary.ProducerPart p = part(e.producerId());
        Integer threads = p.threads() != null ? p.threads() : e.threads();
        return withPart(new StepSummary.ProducerPart(p.producerId(), threads, true, e.outcome(), e.samplesSent(),
                e.blocksSent(), e.errors(), p.clientBound() || Boolean.TRUE.equals(e.clientBound()),
                e.loadGenCpuPct(), e.processCpuPct(), p.rttP50Micros()));
    }

    /** Records a producer's client-bound flag ({@code ClientHealth}). */
    StepMeta withClientBound(ClientHealth e) {
        StepSummary.ProducerPart p = part(e.producerId());
        StepMeta next = p.clientBound() ? this : withPart(new StepSummary.ProducerPart(p.producerId(), p.threads(),
                p.ended(), p.outcome(), p.samplesSent(), p.blocksSent(), p.errors(), true, p.loadGenCpuPct(),
                p.processCpuPct(), p.rttP50Micros()));
        return next.withClientBound();
    }

    private StepSummary.ProducerPart part(String producerId) {
        StepSummary.ProducerPart p = parts.get(producerId);
        return p != null ? p : new StepSummary.ProducerPart(producerId, null, false, null, null, null, null, false,
                null, null, null);
    }

    private StepMeta withPart(StepSummary.ProducerPart p) {
        Map<String, StepSummary.ProducerPart> next = new TreeMap<>(parts);
        next.put(p.producerId(), p);
        return new StepMeta(runId, stepId, ops, blocksReceived, producers, blocksSent, clientBound, bounds, ends,
                firstEndAtMs, awaiting, next, plannedEnds);
    }

    /** Each producer of the step (those that started it or ended it), by producer id. */
    public List<StepSummary.ProducerPart> producerParts() {
        List<StepSummary.ProducerPart> out = new ArrayList<>();
        for (String id : producers) {
            out.add(part(id));
        }
        return out;
    }

    /** Threads of every producer together; null when no producer said how many it ran. */
    public Integer threads() {
        Integer sum = null;
        for (StepSummary.ProducerPart p : producerParts()) {
            if (p.threads() != null) {
                sum = (sum == null ? 0 : sum) + p.threads();
            }
        }
        return sum;
    }

    /** Producers that started the step and have not reported its end. */
    public List<String> missingProducers() {
        List<String> out = new ArrayList<>();
        for (String id : producers) {
            if (!blocksSent.containsKey(id)) {
                out.add(id);
            }
        }
        return out;
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
