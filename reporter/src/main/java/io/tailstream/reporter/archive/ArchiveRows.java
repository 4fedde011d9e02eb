package io.tailstream.reporter.archive;

import io.tailstream.schemas.event.RunSummary;
import java.util.ArrayList;
import java.util.List;

/** Row records of the small datasets (one object per row is fine at their volume). */
final class ArchiveRows {

    private ArchiveRows() {}

    /** One sample block as received, markers included. */
    record BlockRow(int stepId, String producerId, long blockSeq, String kind, boolean openLoop, long sealedAtUs,
                    int sampleCount, int kafkaPartition, long kafkaOffset) {}

    /** One control event as received; {@code event} is the record's JSON as sent. */
    record ControlRow(String type, long atMs, String producerId, Integer stepId, String event, int kafkaPartition,
                      long kafkaOffset) {}

    /**
     * One step, merged over the producers that ran it. Nullable fields are unknown until the step ends; the phase
     * boundaries, reconnects, CPU figures (from {@code step_ended} version 3) and the round-trip probe (from
     * {@code step_started} version 2) are null in events of older producers. {@code producerThreads} is each
     * producer's threads (JSON object, by producer id); {@code threads} their sum.
     */
    record StepRow(int stepId, String targetName, String product, String version, String url, String workload,
                   int threads, int round, long warmupMs, long measureMs, double queriesPerTxn, String ops,
                   String options, Long samplesSent, Long blocksSent, Long errors, String outcome,
                   long startedAtMs, Long endedAtMs, String targetVariables, Double monthlyCost, String currency,
                   Integer nodes, int producers, String costItems, Boolean clientBound, Long blocksSpooled,
                   Long controlEventsSpooled, Long maxSpoolBytes, Long startUs, Long measureStartUs,
                   Long measureEndUs, Long reconnects, Double loadGenCpuPct, Double processCpuPct,
                   io.tailstream.schemas.event.RttProbe rtt, String producerThreads) {}

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

    /**
     * One row of a run summary record as received: the record flattened into a {@code run} row (run-level columns
     * only), a {@code rounds} row per group, a {@code sweep} row per sweep and a {@code scale_out} row per pair;
     * exactly one of {@code rounds}, {@code sweep}, {@code scaleOut} is set except on the {@code run} row. Every row
     * repeats the run-level columns, so the rows of the last record can be selected by them.
     */
    record RunSummaryRow(RunSummary r, String kind, RunSummary.RoundStats rounds, RunSummary.Sweep sweep,
                         RunSummary.ScaleOut scaleOut, int kafkaPartition, long kafkaOffset) {

        static final String RUN = "run";
        static final String ROUNDS = "rounds";
        static final String SWEEP = "sweep";
        static final String SCALE_OUT = "scale_out";

        static List<RunSummaryRow> of(RunSummary r, int partition, long offset) {
            List<RunSummaryRow> out = new ArrayList<>();
            out.add(new RunSummaryRow(r, RUN, null, null, null, partition, offset));
            r.rounds().forEach(g -> out.add(new RunSummaryRow(r, ROUNDS, g, null, null, partition, offset)));
            r.sweeps().forEach(w -> out.add(new RunSummaryRow(r, SWEEP, null, w, null, partition, offset)));
            r.scaleOut().forEach(x -> out.add(new RunSummaryRow(r, SCALE_OUT, null, null, x, partition, offset)));
            return out;
        }

        String target() {
            return rounds != null ? rounds.target() : sweep != null ? sweep.target() : null;
        }

        String workload() {
            return rounds != null ? rounds.workload() : sweep != null ? sweep.workload()
                    : scaleOut != null ? scaleOut.workload() : null;
        }
    }

    /** One client_health control event. */
    record ClientHealthRow(io.tailstream.schemas.event.ClientHealth h, int kafkaPartition, long kafkaOffset) {}

    /**
     * One value of a server_counters control event ({@code kind} gauge or counter), or a failed reading: then name,
     * kind and value are null and the event's error says why.
     */
    record ServerCounterRow(io.tailstream.schemas.event.ServerCounters e, String name, String kind, Long value,
                            int kafkaPartition, long kafkaOffset) {

        /** The event's rows: its gauges, then its counters, each by name; one row without a value if it has none. */
        static List<ServerCounterRow> of(io.tailstream.schemas.event.ServerCounters e, int partition, long offset) {
            List<ServerCounterRow> rows = new ArrayList<>(e.gauges().size() + e.counters().size());
            e.gauges().forEach((n, v) -> rows.add(new ServerCounterRow(e, n,
                    io.tailstream.schemas.event.ServerCounters.GAUGE, v, partition, offset)));
            e.counters().forEach((n, v) -> rows.add(new ServerCounterRow(e, n,
                    io.tailstream.schemas.event.ServerCounters.COUNTER, v, partition, offset)));
            if (rows.isEmpty()) {
                rows.add(new ServerCounterRow(e, null, null, null, partition, offset));
            }
            return rows;
        }
    }
}
