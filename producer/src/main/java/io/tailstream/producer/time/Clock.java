package io.tailstream.producer.time;

import java.time.Instant;

/**
 * The producer's two clocks. Implementations are thread safe.
 */
public interface Clock {

    /** Monotonic nanoseconds, only meaningful as differences ({@link System#nanoTime()}). */
    long nanoTime();

    /** Wall-clock microseconds since the epoch. */
    long epochMicros();

    /**
     * Waits about {@code nanos} of {@link #nanoTime()} (may return early, e.g. on interrupt; callers re-check the
     * time). A test clock advances itself instead.
     */
    default void park(long nanos) {
        java.util.concurrent.locks.LockSupport.parkNanos(nanos);
    }

    /** The system clocks. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /** System clocks: {@link System#nanoTime()} and {@link Instant#now()}. */
    final class SystemClock implements Clock {
        static final SystemClock INSTANCE = new SystemClock();

        private SystemClock() {}

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long epochMicros() {
            Instant now = Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        }
    }
}
