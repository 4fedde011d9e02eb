package io.tailstream.producer.time;

/**
 * Converts monotonic nanoseconds to epoch microseconds against one reading of both clocks (taken at step start),
 * so that every timestamp of a step is as monotonic as {@link System#nanoTime()} and NTP steps in the middle of a
 * step cannot reorder samples. Immutable and thread safe.
 */
public final class EpochAnchor {

    private final long anchorNanos;
    private final long anchorEpochMicros;

    public EpochAnchor(long anchorNanos, long anchorEpochMicros) {
        this.anchorNanos = anchorNanos;
        this.anchorEpochMicros = anchorEpochMicros;
    }

    /** Reads both clocks now. */
    public static EpochAnchor now(Clock clock) {
        return new EpochAnchor(clock.nanoTime(), clock.epochMicros());
    }

    /** Epoch microseconds of a {@link Clock#nanoTime()} reading (floored). */
    public long epochMicros(long nanoTime) {
        return anchorEpochMicros + Math.floorDiv(nanoTime - anchorNanos, 1_000L);
    }

    public long anchorNanos() {
        return anchorNanos;
    }
}
