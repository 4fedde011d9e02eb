package io.tailstream.producer.health;

/**
 * Cumulative counters of the client read at one instant; two readings give an interval's figures (the CPU split is
 * {@link CpuAccount}'s). Immutable.
 *
 * @param wallNanos        monotonic time of the reading
 * @param gcMillis         GC time of every collector since the process started (the collectors' approximation of
 *                         pause time)
 * @param machineCpuPct    the machine's CPU use over the platform's recent window, 0..100, or -1 if unavailable
 * @param cpus             processors available to the JVM
 */
record HealthReadings(long wallNanos, long gcMillis, double machineCpuPct, int cpus) {

    /** GC time between {@code earlier} and this reading, ms. */
    public long gcMillisSince(HealthReadings earlier) {
        return Math.max(0, gcMillis - earlier.gcMillis);
    }
}
