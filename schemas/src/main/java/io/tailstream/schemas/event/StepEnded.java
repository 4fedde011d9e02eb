package io.tailstream.schemas.event;

/**
 * A producer finished a step.
 *
 * <p>Version 2 added {@code clientBound}, {@code blocksSpooled}, {@code controlEventsSpooled} and
 * {@code maxSpoolBytes}; they are null in events of older producers (absent from their JSON) and never written as
 * null. Version 3 added the step's exact phase boundaries ({@code startEpochMicros}, {@code measureStartEpochMicros},
 * {@code measureEndEpochMicros}), {@code threads}, {@code reconnects} and the CPU figures; null in older events.
 *
 * @param samplesSent          samples of this step the producer handed to Kafka (acknowledged)
 * @param blocksSent           blocks of this step, markers included
 * @param errors               samples with an error status
 * @param outcome              {@code completed}, {@code failed: <reason>} (an error that is not ignored, a target
 *                             that went away) or {@code interrupted: <reason>} (the user stopped the run)
 * @param clientBound          the producer's process CPU exceeded its limit during the step (as the step's
 *                             {@code client_health} events say); null from producers before version 2
 * @param blocksSpooled        blocks of the step's time that went through the producer's spool file because Kafka was
 *                             slow or away (0: none; null: not reported)
 * @param controlEventsSpooled control events of the step's time that waited for the broker in the spool
 * @param maxSpoolBytes        most bytes the producer's spool held at once during the step
 */
public record StepEnded(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        long samplesSent,
        long blocksSent,
        long errors,
        String outcome,
        Boolean clientBound,
        Long blocksSpooled,
        Long controlEventsSpooled,
        Long maxSpoolBytes,
        Long startEpochMicros,
        Long measureStartEpochMicros,
        Long measureEndEpochMicros,
        Integer threads,
        Long reconnects,
        Double loadGenCpuPct,
        Double processCpuPct) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "step_ended";


    /** The outcome of a step that ran to its end. */
    public static final String COMPLETED = "completed";

    /** A version-2 event: no phase boundaries, threads, reconnects or CPU figures. */
    public StepEnded(String runId, long atEpochMs, String producerId, int stepId, long samplesSent, long blocksSent,
                     long errors, String outcome, Boolean clientBound, Long blocksSpooled, Long controlEventsSpooled,
                     Long maxSpoolBytes) {
        this(runId, atEpochMs, producerId, stepId, samplesSent, blocksSent, errors, outcome, clientBound,
                blocksSpooled, controlEventsSpooled, maxSpoolBytes, null, null, null, null, null, null, null);
    }

    /** A version-1 event: no client-bound flag or spool statistics. */
    public StepEnded(String runId, long atEpochMs, String producerId, int stepId, long samplesSent, long blocksSent,
                     long errors, String outcome) {
        this(runId, atEpochMs, producerId, stepId, samplesSent, blocksSent, errors, outcome, null, null, null, null);
    }

    /** True if the step ran to its end ({@link #COMPLETED}). */
    public boolean completed() {
        return COMPLETED.equals(outcome);
    }

    /** Measured seconds ({@code measureEnd - measureStart}), or null from producers before version 3. */
    public Double measuredSeconds() {
        return measureStartEpochMicros == null || measureEndEpochMicros == null ? null
                : (measureEndEpochMicros - measureStartEpochMicros) / 1e6;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
