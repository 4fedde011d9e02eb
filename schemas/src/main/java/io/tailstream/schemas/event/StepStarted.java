package io.tailstream.schemas.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * A step (one target x workload x thread count x round) started. Its full description travels here once;
 * samples carry only the small {@code stepId}.
 *
 * @param stepId                 the step's id within the run
 * @param target                 the target, with metadata captured at step start
 * @param workload               workload name ({@code oltp_read_write})
 * @param threads                concurrency
 * @param round                  1-based round number
 * @param warmupMs               warm-up duration; samples in it are flagged, not dropped
 * @param measureMs              measurement duration after warm-up
 * @param ops                    op names the step's samples use, in block order
 * @param queriesPerTransaction  statements one successful transaction executes (the workload's QPS/TPS ratio)
 * @param options                workload options as given (table count, table size, ...)
 * @param rtt                    round trip to the target measured just before the step (version 2; null from older
 *                               producers, or when the probe could not run)
 * @param startAtEpochMs         the start the producers of a shared run agreed on, ms since the epoch (version 4;
 *                               null for a producer that runs alone)
 * @param participants           the producers that agreed to run the step, sorted (version 4; empty for a producer
 *                               that runs alone): consumers expect the step's end from each of them
 */
public record StepStarted(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        TargetInfo target,
        String workload,
        int threads,
        int round,
        long warmupMs,
        long measureMs,
        List<String> ops,
        double queriesPerTransaction,
        Map<String, String> options,
        RttProbe rtt,
        Long startAtEpochMs,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> participants) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "step_started";


    public StepStarted {
        ops = ops == null ? List.of() : List.copyOf(ops);
        options = options == null ? Map.of() : Map.copyOf(options);
        participants = participants == null ? List.of() : List.copyOf(participants);
    }

    /** A version-3 event: a producer that runs alone. */
    public StepStarted(String runId, long atEpochMs, String producerId, int stepId, TargetInfo target,
                       String workload, int threads, int round, long warmupMs, long measureMs, List<String> ops,
                       double queriesPerTransaction, Map<String, String> options, RttProbe rtt) {
        this(runId, atEpochMs, producerId, stepId, target, workload, threads, round, warmupMs, measureMs, ops,
                queriesPerTransaction, options, rtt, null, List.of());
    }

    /** A version-1 event: no round-trip probe. */
    public StepStarted(String runId, long atEpochMs, String producerId, int stepId, TargetInfo target,
                       String workload, int threads, int round, long warmupMs, long measureMs, List<String> ops,
                       double queriesPerTransaction, Map<String, String> options) {
        this(runId, atEpochMs, producerId, stepId, target, workload, threads, round, warmupMs, measureMs, ops,
                queriesPerTransaction, options, null, null, List.of());
    }

    @Override
    public String type() {
        return TYPE;
    }
}
