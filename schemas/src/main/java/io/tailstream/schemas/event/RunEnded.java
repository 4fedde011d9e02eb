package io.tailstream.schemas.event;

/**
 * A producer finished its run. The counts let every consumer prove it saw each block exactly once.
 *
 * <p>Version 2 added {@code clientBound}, {@code blocksSpooled}, {@code controlEventsSpooled} and
 * {@code maxSpoolBytes}; they are null in events of older producers (absent from their JSON) and never written as
 * null.
 *
 * @param blocksSent           blocks sent in the run, markers included; block sequences are 0..blocksSent-1
 * @param samplesSent          samples sent in the run
 * @param outcome              {@code completed}, or {@code failed: <reason>}
 * @param clientBound          at least one step of the run was client-bound; null from producers before version 2
 * @param blocksSpooled        blocks that went through the spool file in the run (0: none; null: not reported)
 * @param controlEventsSpooled control events that waited for the broker in the spool (this event excluded)
 * @param maxSpoolBytes        most bytes the spool held at once in the run
 */
public record RunEnded(
        String runId,
        long atEpochMs,
        String producerId,
        long blocksSent,
        long samplesSent,
        String outcome,
        Boolean clientBound,
        Long blocksSpooled,
        Long controlEventsSpooled,
        Long maxSpoolBytes) implements ControlEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "run_ended";


    /** A version-1 event: no client-bound flag or spool statistics. */
    public RunEnded(String runId, long atEpochMs, String producerId, long blocksSent, long samplesSent,
                    String outcome) {
        this(runId, atEpochMs, producerId, blocksSent, samplesSent, outcome, null, null, null, null);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
