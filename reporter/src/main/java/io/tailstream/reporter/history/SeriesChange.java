package io.tailstream.reporter.history;

import io.tailstream.analysis.interval.PercentInterval;
import java.util.List;

/**
 * A change point of a series: between {@code lastRunBefore} and {@code firstRunAfter} the metric moved from one level
 * to another.
 *
 * @param index         position of {@code firstRunAfter} in the series' points
 * @param lastRunBefore the last run of the segment before
 * @param firstRunAfter the first run of the segment after
 * @param runsBefore    runs in the segment before (back to the previous change point)
 * @param runsAfter     runs in the segment after (up to the next change point)
 * @param meanBefore    the metric's mean over the segment before
 * @param meanAfter     its mean over the segment after
 * @param change        {@code meanAfter / meanBefore - 1} in percent, with its 95% confidence interval
 * @param pValue        two-sided p-value of the t-test between the segments
 * @param worse         true if the change is a regression for this metric (lower throughput, higher latency or
 *                      errors)
 * @param differences   the fingerprint attributes whose values differ between the two segments
 */
public record SeriesChange(int index, String lastRunBefore, String firstRunAfter, int runsBefore, int runsAfter,
                           double meanBefore, double meanAfter, PercentInterval change, double pValue, boolean worse,
                           List<Fingerprint.Change> differences) {

    public SeriesChange {
        differences = List.copyOf(differences);
    }
}
