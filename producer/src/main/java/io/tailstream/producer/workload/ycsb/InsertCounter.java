package io.tailstream.producer.workload.ycsb;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * YCSB's {@code AcknowledgedCounterGenerator}: hands out insert key numbers in order and tracks the highest number
 * below which every insert has been acknowledged, so reads never choose a key whose insert has not committed yet.
 * Shared by every worker of a step. Thread safe: {@link #next()} is an atomic increment; {@link #acknowledge} takes
 * a lock (inserts are a few percent of operations in the core workloads).
 */
final class InsertCounter {

    private final AtomicLong next;
    private volatile long limit;
    private final Set<Long> ackedAboveLimit = new HashSet<>();

    /** Keys {@code [0, start)} exist already (the loaded records); the next insert gets {@code start}. */
    public InsertCounter(long start) {
        this.next = new AtomicLong(start);
        this.limit = start - 1;
    }

    /** The next key number to insert. */
    public long next() {
        return next.getAndIncrement();
    }

    /** The highest key number such that it and every key below it are inserted (or were loaded). */
    public long lastValue() {
        return limit;
    }

    /**
     * Marks {@code value}'s insert as done (committed or failed: a failed insert must not hold every later key back,
     * and a read of its key then finds no row, which YCSB counts the same way).
     */
    public synchronized void acknowledge(long value) {
        if (value <= limit) {
            return;
        }
        ackedAboveLimit.add(value);
        long l = limit;
        while (ackedAboveLimit.remove(l + 1)) {
            l++;
        }
        limit = l;
    }
}
