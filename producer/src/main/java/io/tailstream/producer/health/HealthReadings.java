package io.tailstream.producer.health;

/**
 * Cumulative counters of the client read at one instant; two readings give an interval's figures. Immutable.
 *
 * @param wallNanos        monotonic time of the reading
 * @param processCpuNanos  CPU time this process used since it started, all threads
 * @param gcMillis         GC time of every collector since the process started (the collectors' approximation of
 *                         pause time)
 * @param machineCpuPct    the machine's CPU use over the platform's recent window, 0..100, or -1 if unavailable
 * @param cpus             processors available to the JVM
 */
public record HealthReadings(long wallNanos, long processCpuNanos, long gcMillis, double machineCpuPct, int cpus) {

    /**
     * This process's CPU use between {@code earlier} and this reading, in percent of the whole machine
     * ({@code cpuTime / (wallTime x cpus)}): 100 means every core busy with this process.
     */
    public double processCpuPctSince(HealthReadings earlier) {
        long wall = wallNanos - earlier.wallNanos;
        if (wall <= 0 || cpus <= 0) {
            return 0;
        }
        return Math.max(0, processCpuNanos - earlier.processCpuNanos) * 100.0 / ((double) wall * cpus);
    }

    /** GC time between {@code earlier} and this reading, ms. */
    public long gcMillisSince(HealthReadings earlier) {
        return Math.max(0, gcMillis - earlier.gcMillis);
    }
}
