package io.tailstream.reporter.query;

import java.util.List;

/**
 * One archived run as {@code runs} lists it.
 *
 * @param runId        run id
 * @param planName     plan name
 * @param startedAtMs  start, ms since the epoch
 * @param endedAtMs    end, or null while a producer has not ended the run
 * @param outcome      {@code completed}, ..., or null while running
 * @param samplesSent  samples the producers declared, or null while running
 * @param steps        steps archived
 * @param targets      distinct targets of its steps, sorted
 * @param workloads    distinct workloads of its steps, sorted
 */
public record RunListing(String runId, String planName, long startedAtMs, Long endedAtMs, String outcome,
                         Long samplesSent, int steps, List<String> targets, List<String> workloads) {

    public RunListing {
        targets = List.copyOf(targets);
        workloads = List.copyOf(workloads);
    }
}
