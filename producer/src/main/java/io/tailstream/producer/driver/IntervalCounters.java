package io.tailstream.producer.driver;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A worker's running totals (successful transactions, failed transactions, successful statements) that the console
 * reporter reads as one consistent snapshot: a sequence lock with a single writer; and, apart, the connections it
 * re-established. Without it a reader can see a transaction's statements but not
 * the transaction itself, and an interval line of {@code oltp_point_select} shows QPS ≠ TPS.
 *
 * <p>One writer (the worker), any number of readers. The write costs two ordered stores more than plain counters,
 * nothing next to a database round trip.
 */
final class IntervalCounters {

    private final AtomicLong version = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong queries = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();

    /** Counts one finished transaction. Worker thread only. */
    void add(boolean success, int statements) {
        long v = version.getPlain();
        version.setOpaque(v + 1); // odd: a write is in progress
        VarHandle.storeStoreFence();
        if (success) {
            ok.setOpaque(ok.getPlain() + 1);
        } else {
            errors.setOpaque(errors.getPlain() + 1);
        }
        queries.setOpaque(queries.getPlain() + statements);
        version.setRelease(v + 2);
    }

    /** Counts one re-established connection. Worker thread only; rare, so a plain ordered store. */
    void reconnected() {
        reconnects.setRelease(reconnects.getPlain() + 1);
    }

    /** Connections re-established so far. */
    long reconnects() {
        return reconnects.getAcquire();
    }

    /** Adds a consistent snapshot of the totals to {@code totals} ({@code [ok, errors, queries]}). */
    void addTo(long[] totals) {
        while (true) {
            long before = version.getAcquire();
            if ((before & 1) == 0) {
                long o = ok.getOpaque();
                long e = errors.getOpaque();
                long q = queries.getOpaque();
                VarHandle.loadLoadFence();
                if (version.getOpaque() == before) {
                    totals[0] += o;
                    totals[1] += e;
                    totals[2] += q;
                    return;
                }
            }
            Thread.onSpinWait();
        }
    }
}
