package io.tailstream.reporter.archive;

/** Row records of the small datasets (one object per row is fine at their volume). */
final class ArchiveRows {

    private ArchiveRows() {}

    /** One sample block as received, markers included. */
    record BlockRow(int stepId, String producerId, long blockSeq, String kind, boolean openLoop, long sealedAtUs,
                    int sampleCount, int kafkaPartition, long kafkaOffset) {}

    /** One control event as received; {@code event} is the record's JSON as sent. */
    record ControlRow(String type, long atMs, String producerId, Integer stepId, String event, int kafkaPartition,
                      long kafkaOffset) {}

    /** One step, merged over the producers that ran it. Nullable fields are unknown until the step ends. */
    record StepRow(int stepId, String targetName, String product, String version, String url, String workload,
                   int threads, int round, long warmupMs, long measureMs, double queriesPerTxn, String ops,
                   String options, Long samplesSent, Long blocksSent, Long errors, String outcome,
                   long startedAtMs, Long endedAtMs, String targetVariables, Double monthlyCost, String currency,
                   Integer nodes, int producers, String costItems, Boolean clientBound, Long blocksSpooled,
                   Long controlEventsSpooled, Long maxSpoolBytes) {}

    /** One run, merged over its producers. */
    record RunRow(String planName, long startedAtMs, Long endedAtMs, String producers, Long blocksSent,
                  Long samplesSent, String outcome, String targets, String client, String settings,
                  Boolean clientBound, Long blocksSpooled, Long controlEventsSpooled, Long maxSpoolBytes) {}

    /** One stall record as received (an open stall is re-published while it lasts; the last one per key wins). */
    record StallRow(int stepId, String kind, long startMs, long endMs, boolean open, double baselineQps,
                    double minQps, long baselineP99Us, long worstP99Us, String affectedOps, long atMs,
                    int kafkaPartition, long kafkaOffset) {}

    /** One step summary record as received (per step and op; the last one per key wins). */
    record SummaryRow(io.tailstream.schemas.event.StepSummary s, int kafkaPartition, long kafkaOffset) {}

    /** One client_health control event. */
    record ClientHealthRow(io.tailstream.schemas.event.ClientHealth h, int kafkaPartition, long kafkaOffset) {}
}
