package io.tailstream.producer.driver;

import io.tailstream.producer.time.Clock;
import java.util.function.BooleanSupplier;

/**
 * One open-loop worker's schedule: intended starts at {@code first, first + interval, first + 2 interval, ...},
 * whatever happened before. When a transaction overruns (the target stalls), the next intended starts are already
 * past and run back to back, and their latency measured from the intended start includes the time they waited: the
 * coordinated-omission correction, as HdrHistogram's {@code recordValueWithExpectedInterval} approximates it after
 * the fact. Owned by one worker thread.
 */
final class OpenLoopPacer {

    /** Longest single park, so a stop request is seen within this time even when the next start is far. */
    static final long MAX_PARK_NANOS = 10_000_000L;

    private final Clock clock;
    private final long intervalNanos;
    private long next;

    /**
     * @param firstNanos    first intended start ({@link Clock#nanoTime()} scale)
     * @param intervalNanos time between intended starts, > 0
     */
    OpenLoopPacer(Clock clock, long firstNanos, long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0 ns, was " + intervalNanos);
        }
        this.clock = clock;
        this.intervalNanos = intervalNanos;
        this.next = firstNanos;
    }

    /** The next intended start, not yet taken. */
    long peek() {
        return next;
    }

    /**
     * Waits until the next intended start (at once if it is past) and takes it.
     *
     * @param stop checked while waiting
     * @return the intended start, or {@link Long#MIN_VALUE} if {@code stop} became true or the thread was
     *         interrupted while waiting (the start is then not taken)
     */
    long awaitNext(BooleanSupplier stop) {
        long intended = next;
        long left;
        while ((left = intended - clock.nanoTime()) > 0) {
            if (stop.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                return Long.MIN_VALUE;
            }
            clock.park(Math.min(left, MAX_PARK_NANOS));
        }
        next = intended + intervalNanos;
        return intended;
    }
}
