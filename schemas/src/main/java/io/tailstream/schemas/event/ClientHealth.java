package io.tailstream.schemas.event;

import java.util.Map;

/**
 * The load client's own health, once a second: a saturated client reports its own bottleneck as the database's.
 *
 * @param processCpuPct     this process's CPU use, % of the whole machine
 * @param machineCpuPct     the machine's CPU use, %
 * @param gcPauseMs         GC pause time in the last interval
 * @param emitBacklogBlocks blocks waiting to be sent to Kafka
 * @param rttMillis         round trip of {@code SELECT 1} to each target endpoint
 * @param clientBound       process CPU exceeded the configured threshold
 */
public record ClientHealth(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        double processCpuPct,
        double machineCpuPct,
        long gcPauseMs,
        long emitBacklogBlocks,
        Map<String, Double> rttMillis,
        boolean clientBound) implements ControlEvent {

    public ClientHealth {
        rttMillis = rttMillis == null ? Map.of() : Map.copyOf(rttMillis);
    }
}
