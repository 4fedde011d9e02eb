package io.tailstream.reporter.report;

/**
 * A long step as a soak (methodology: "average QPS, stall episodes, macro decline, micro jitter"), from every
 * measured all-ops window (not the down-sampled chart).
 *
 * @param hours            measured windows / 3,600
 * @param meanQps          mean of the measured windows' QPS
 * @param firstHourQps     mean QPS of the first hour's windows
 * @param lastHourQps      mean QPS of the last hour's windows
 * @param trendPctPerHour  least-squares slope of window QPS over time, in % of the mean per hour (macro trend)
 * @param jitterPct        standard deviation of window QPS in % of the mean (micro jitter)
 * @param stalls           stalls of the step
 * @param stallSeconds     their total duration within the measurement
 * @param stallSharePct    stallSeconds in % of the planned measurement duration
 */
public record Soak(String runId, int stepId, String target, String workload, int threads, double hours,
                   double meanQps, double firstHourQps, double lastHourQps, double trendPctPerHour,
                   double jitterPct, int stalls, double stallSeconds, double stallSharePct) {}
