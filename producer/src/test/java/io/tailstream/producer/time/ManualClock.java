package io.tailstream.producer.time;

import java.util.concurrent.atomic.AtomicLong;

/** A clock tests advance by hand. Thread safe. */
public final class ManualClock implements Clock {

    private final AtomicLong nanos;
    private final long epochMicrosAtZero;

    public ManualClock(long startNanos, long epochMicrosAtStart) {
        this.nanos = new AtomicLong(startNanos);
        this.epochMicrosAtZero = epochMicrosAtStart - startNanos / 1_000;
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long epochMicros() {
        return epochMicrosAtZero + nanos.get() / 1_000;
    }

    /** Parking advances this clock: a simulated wait takes no real time. */
    @Override
    public void park(long ns) {
        nanos.addAndGet(ns);
    }

    public void advanceMillis(long ms) {
        nanos.addAndGet(ms * 1_000_000L);
    }

    public void advanceNanos(long ns) {
        nanos.addAndGet(ns);
    }
}
