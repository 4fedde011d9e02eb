package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.window.LatencyBuckets;
import io.tailstream.aggregator.window.SparseHistogram;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.block.SampleVisitor;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits one block's samples into per-(window, op) partials, plus the "all ops" partial of each window, without
 * allocating per sample: each sample costs a bucket computation and an array append; each (window, op) a sort of its
 * bucket keys and one {@link SparseHistogram} when the block is done. Buffers are reused across blocks.
 *
 * <p>A sample counts in the window its transaction completed in ({@code start + latency}), windows aligned to the
 * epoch.
 *
 * <p>Not thread safe: one instance per stage-1 processor.
 */
final class BlockPartials implements SampleVisitor {

    /** Receives the partials of a block. */
    interface Sink {
        void partial(long windowStartEpochMs, WindowAggregate partial);
    }

    private final long windowSizeMs;
    private final List<Slot> slots = new ArrayList<>();
    private int usedSlots;
    private Slot last;

    BlockPartials(long windowSizeMs) {
        this.windowSizeMs = windowSizeMs;
    }

    /** Prepares for the next block; forgets anything from a previous (possibly failed) block. */
    void begin() {
        usedSlots = 0; // slots are reset when reused
        last = null;
    }

    @Override
    public void sample(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                       SampleStatus status, int queries, boolean warmup) {
        long endMs = Math.floorDiv(startEpochMicros + latencyMicros, 1000L);
        long windowStart = endMs - Math.floorMod(endMs, windowSizeMs);
        Slot slot = last != null && last.windowStart == windowStart ? last : slot(windowStart);
        last = slot;
        slot.acc(opIndex).add(LatencyBuckets.bucketOf(latencyMicros), status, queries, warmup);
    }

    /** True if the block just decoded had at least one sample. */
    boolean hasSamples() {
        return usedSlots > 0;
    }

    /**
     * Emits the partials of the block just decoded: per window, each op with samples, then {@code "*"}. The first
     * window's {@code "*"} partial also counts the block itself ({@link WindowAggregate#blocks()}).
     */
    void emit(BlockHeader header, Sink sink) {
        for (int s = 0; s < usedSlots; s++) {
            Slot slot = slots.get(s);
            WindowAggregate all = new WindowAggregate(header.runId(), header.stepId(), WindowStats.ALL_OPS);
            for (int op = 0; op < slot.usedOps; op++) {
                OpAccumulator acc = slot.ops[op];
                if (acc.count == 0) {
                    continue;
                }
                WindowAggregate partial = acc.toPartial(header.runId(), header.stepId(), header.ops().get(op));
                all.addCountsOf(partial);
                sink.partial(slot.windowStart, partial);
            }
            if (s == 0) {
                all.addBlocks(1);
            }
            sink.partial(slot.windowStart, all);
        }
    }

    private Slot slot(long windowStart) {
        for (int i = 0; i < usedSlots; i++) {
            if (slots.get(i).windowStart == windowStart) {
                return slots.get(i);
            }
        }
        if (usedSlots == slots.size()) {
            slots.add(new Slot());
        }
        Slot slot = slots.get(usedSlots++);
        slot.reset();
        slot.windowStart = windowStart;
        return slot;
    }

    private static final class Slot {
        long windowStart;
        OpAccumulator[] ops = new OpAccumulator[0];
        /** Accumulators 0..usedOps-1 are reset for the current block; the rest are reset when first touched. */
        int usedOps;

        void reset() {
            usedOps = 0;
        }

        OpAccumulator acc(int op) {
            if (op >= usedOps) {
                if (op >= ops.length) {
                    OpAccumulator[] grown = Arrays.copyOf(ops, op + 1);
                    for (int i = ops.length; i <= op; i++) {
                        grown[i] = new OpAccumulator();
                    }
                    ops = grown;
                }
                for (int i = usedOps; i <= op; i++) {
                    ops[i].reset();
                }
                usedOps = op + 1;
            }
            return ops[op];
        }
    }

    private static final class OpAccumulator {
        long[] buckets = new long[256];
        int count;
        final long[] errorsByCode = new long[SampleStatus.MAX_CODE + 1];
        long queries;
        long warmup;

        void reset() {
            count = 0;
            Arrays.fill(errorsByCode, 0);
            queries = 0;
            warmup = 0;
        }

        void add(long bucket, SampleStatus status, int q, boolean isWarmup) {
            if (count == buckets.length) {
                buckets = Arrays.copyOf(buckets, count * 2);
            }
            buckets[count++] = bucket;
            errorsByCode[status.code()]++;
            queries += q;
            if (isWarmup) {
                warmup++;
            }
        }

        WindowAggregate toPartial(String runId, int stepId, String op) {
            Arrays.sort(buckets, 0, count);
            return WindowAggregate.ofSamples(runId, stepId, op, SparseHistogram.ofSortedBuckets(buckets, count),
                    errorsByCode, queries, warmup);
        }
    }
}
