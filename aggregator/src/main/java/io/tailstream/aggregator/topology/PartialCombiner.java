package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.window.BucketPool;
import io.tailstream.aggregator.window.PartialBuilder;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.block.SampleVisitor;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Stage 1's combiner: everything the task decoded since its last flush, per (run, step, window, op), in recycled
 * {@link PartialBuilder}s. Blocks are only added; partials leave in {@link #flush}, which stage 1 calls when its task
 * prepares a commit (so what a transaction's input offsets cover has been sent in that transaction), before
 * end-of-step ticks (so a tick never overtakes its step's samples) and when too many builders are in use.
 *
 * <p>Why combine: one partial per block (the previous design) sent ops + 1 records per 1,024 samples through the
 * repartition topic and the stage-2 store, and measured 0.12–0.5 M samples/s; combined, the records crossing the
 * topic depend on the windows and scopes touched per commit, not on the sample rate (docs/benchmarks.md).
 *
 * <p>A block is decoded into a staging area first ({@link #stage()}) and {@linkplain #addStaged added} only once
 * the whole block decoded, so a block that turns out corrupt half-way leaves nothing behind. Per sample the cost is
 * a window computation and an array append while decoding, then one bucket increment ({@link PartialBuilder#record});
 * nothing is allocated per sample.
 *
 * <p>A sample counts in the window its transaction completed in ({@code start + latency}), windows aligned to the
 * epoch. Not thread safe: one instance per stage-1 processor.
 */
final class PartialCombiner {

    /** Receives flushed partials: window start (the record timestamp) and the partial, keyed by its scope. */
    interface Sink {
        void partial(long windowStartEpochMs, WindowAggregate partial);
    }

    private final long windowSizeMs;
    private final int maxBuilders;
    private final Map<WindowKey, WindowEntry> windows = new HashMap<>();
    private final ArrayDeque<PartialBuilder> pool = new ArrayDeque<>();
    /** The bucket sets builders borrow for failed and warm-up samples. */
    private final BucketPool bucketSets = new BucketPool();
    private final Staging staging = new Staging();
    private int buildersInUse;

    /**
     * @param windowSizeMs base window, ms
     * @param maxBuilders  bucket sets (186 KB each: one per builder, plus those builders borrowed for failed and
     *                     warm-up samples) in use at which {@link #full()} says to flush early; bounds the heap when a
     *                     commit interval covers many windows (replaying a backlog)
     */
    PartialCombiner(long windowSizeMs, int maxBuilders) {
        if (windowSizeMs <= 0) {
            throw new IllegalArgumentException("window size must be positive, got " + windowSizeMs + " ms");
        }
        if (maxBuilders < 2) {
            throw new IllegalArgumentException("maxBuilders must be at least 2, got " + maxBuilders);
        }
        this.windowSizeMs = windowSizeMs;
        this.maxBuilders = maxBuilders;
    }

    /** The visitor to decode the next block into; forgets anything staged from a previous (possibly failed) block. */
    SampleVisitor stage() {
        staging.size = 0;
        return staging;
    }

    /** True if the block just staged had samples. */
    boolean stagedSamples() {
        return staging.size > 0;
    }

    /**
     * Adds the block just staged: its samples to their (window, op) builders, and the block itself to the block
     * count of the step's "all ops" partial in the window of its first sample.
     */
    void addStaged(BlockHeader header) {
        Staging s = staging;
        List<String> ops = header.ops();
        WindowEntry entry = null;
        PartialBuilder[] opBuilders = null;
        for (int i = 0; i < s.size; i++) {
            long windowStart = s.windowStarts[i];
            if (entry == null || entry.key.windowStartEpochMs != windowStart) {
                entry = entry(header.runId(), header.stepId(), windowStart);
                entry.producers.add(header.producerId());
                opBuilders = entry.buildersFor(ops, this);
                if (i == 0) {
                    entry.all(this).addBlocks(1);
                }
            }
            opBuilders[s.ops[i]].record(s.latencies[i], s.statusCodes[i], s.queries[i], s.warmups[i]);
        }
    }

    /**
     * A heartbeat: every op of the step, and the step's "all ops", was alive in the window; counts one block. The
     * producer is named in the window's partials, so stage 2 knows it is a producer of the step from its start.
     */
    void addHeartbeat(String runId, String producerId, int stepId, List<String> ops, long windowStartEpochMs) {
        WindowEntry entry = entry(runId, stepId, windowStartEpochMs);
        entry.producers.add(producerId);
        for (PartialBuilder op : entry.buildersFor(ops, this)) {
            op.addHeartbeat();
        }
        PartialBuilder all = entry.all(this);
        all.addHeartbeat();
        all.addBlocks(1);
    }

    /** Blocks received that carry no samples of their own (empty data blocks, marker copies). */
    void addBlocks(String runId, int stepId, long windowStartEpochMs, long n) {
        entry(runId, stepId, windowStartEpochMs).all(this).addBlocks(n);
    }

    /** True if enough bucket sets are in use that the caller should flush now. */
    boolean full() {
        return buildersInUse + bucketSets.inUse() >= maxBuilders;
    }

    boolean isEmpty() {
        return windows.isEmpty();
    }

    /**
     * Sends every combined partial and empties the combiner: windows in ascending order (stage 2's stream time then
     * moves as if the samples had arrived in time order, so a flush never makes its own older windows late), in a
     * window each op that has something, then the step's "all ops" partial (the ops' samples plus its own
     * heartbeats and blocks).
     */
    void flush(Sink sink) {
        if (windows.isEmpty()) {
            return;
        }
        List<WindowEntry> entries = new ArrayList<>(windows.values());
        windows.clear();
        entries.sort(Comparator.comparingLong((WindowEntry e) -> e.key.windowStartEpochMs)
                .thenComparing(e -> e.key.runId)
                .thenComparingInt(e -> e.key.stepId));
        for (WindowEntry e : entries) {
            String runId = e.key.runId;
            int stepId = e.key.stepId;
            PartialBuilder all = e.all(this);
            for (int i = 0; i < e.opNames.size(); i++) {
                PartialBuilder op = e.opBuilders.get(i);
                if (!op.isEmpty()) {
                    sink.partial(e.key.windowStartEpochMs,
                            op.build(runId, stepId, e.opNames.get(i)).withProducers(e.producers));
                    all.addSamplesOf(op);
                }
                release(op);
            }
            sink.partial(e.key.windowStartEpochMs,
                    all.build(runId, stepId, WindowStats.ALL_OPS).withProducers(e.producers));
            release(all);
        }
    }

    private WindowEntry entry(String runId, int stepId, long windowStartEpochMs) {
        return windows.computeIfAbsent(new WindowKey(runId, stepId, windowStartEpochMs), WindowEntry::new);
    }

    private PartialBuilder acquire() {
        buildersInUse++;
        PartialBuilder b = pool.poll();
        return b != null ? b : new PartialBuilder(bucketSets);
    }

    private void release(PartialBuilder b) {
        b.reset();
        buildersInUse--;
        pool.push(b);
    }

    private record WindowKey(String runId, int stepId, long windowStartEpochMs) {}

    /** The builders of one (run, step, window): one per op name, and the "all ops" one. */
    private static final class WindowEntry {
        final WindowKey key;
        final List<String> opNames = new ArrayList<>(4);
        final List<PartialBuilder> opBuilders = new ArrayList<>(4);
        /** Producers whose data blocks or heartbeats went into this window's builders. */
        final Set<String> producers = new TreeSet<>();
        PartialBuilder all;
        /** The last op list resolved and its builders: consecutive blocks of a producer share their op list. */
        private List<String> lastOps;
        private PartialBuilder[] lastBuilders;

        WindowEntry(WindowKey key) {
            this.key = key;
        }

        PartialBuilder all(PartialCombiner owner) {
            if (all == null) {
                all = owner.acquire();
            }
            return all;
        }

        /** Builders in the order of a block's op list (op index → builder); ops are matched by name. */
        PartialBuilder[] buildersFor(List<String> ops, PartialCombiner owner) {
            if (ops.equals(lastOps)) {
                return lastBuilders;
            }
            PartialBuilder[] out = new PartialBuilder[ops.size()];
            for (int i = 0; i < out.length; i++) {
                String name = Objects.requireNonNull(ops.get(i), "op name");
                int at = opNames.indexOf(name);
                if (at < 0) {
                    opNames.add(name);
                    opBuilders.add(owner.acquire());
                    at = opNames.size() - 1;
                }
                out[i] = opBuilders.get(at);
            }
            all(owner);
            lastOps = ops;
            lastBuilders = out;
            return out;
        }
    }

    /** One block's samples as decoded, before the block is known to be whole. */
    private final class Staging implements SampleVisitor {
        int size;
        long[] windowStarts = new long[1024];
        long[] latencies = new long[1024];
        int[] ops = new int[1024];
        int[] statusCodes = new int[1024];
        int[] queries = new int[1024];
        boolean[] warmups = new boolean[1024];

        @Override
        public void sample(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                           SampleStatus status, int queryCount, boolean warmup) {
            if (size == latencies.length) {
                grow();
            }
            long endMs = Math.floorDiv(startEpochMicros + latencyMicros, 1000L);
            windowStarts[size] = endMs - Math.floorMod(endMs, windowSizeMs);
            latencies[size] = latencyMicros;
            ops[size] = opIndex;
            statusCodes[size] = status.code();
            queries[size] = queryCount;
            warmups[size] = warmup;
            size++;
        }

        private void grow() {
            int n = size * 2;
            windowStarts = Arrays.copyOf(windowStarts, n);
            latencies = Arrays.copyOf(latencies, n);
            ops = Arrays.copyOf(ops, n);
            statusCodes = Arrays.copyOf(statusCodes, n);
            queries = Arrays.copyOf(queries, n);
            warmups = Arrays.copyOf(warmups, n);
        }
    }
}
