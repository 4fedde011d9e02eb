package io.tailstream.aggregator.window;

import java.util.ArrayDeque;

/**
 * Recycled {@link BucketCounts} (186 KB each) for the bucket sets a {@link PartialBuilder} needs only sometimes: failed
 * samples, and warm-up samples, which are rare or confined to a few windows. A builder takes one when such a sample
 * first occurs in its window and gives it back when it is reset, so the heap holds as many as are in use at once,
 * not one per builder and kind.
 *
 * <p>Not thread safe: one stage-1 task owns it with its builders.
 */
public final class BucketPool {

    private final ArrayDeque<BucketCounts> free = new ArrayDeque<>();
    private int inUse;

    BucketCounts acquire() {
        inUse++;
        BucketCounts b = free.poll();
        return b != null ? b : new BucketCounts();
    }

    void release(BucketCounts b) {
        b.reset();
        inUse--;
        free.push(b);
    }

    /** Sets handed out and not yet given back. */
    public int inUse() {
        return inUse;
    }
}
