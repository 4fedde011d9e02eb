package io.tailstream.schemas.event;

import java.util.Map;

/**
 * The load client's own health, once a second: a saturated client reports its own bottleneck as the database's.
 *
 * <p>Version 2 split the process's CPU: {@code loadGenCpuPct} is what the load generator's own threads used, and
 * the client-bound flag is decided on it, so an in-process broker, aggregator, JIT or GC does not count as load
 * generation; null in events of older producers.
 *
 * @param processCpuPct     this process's CPU use, % of the whole machine
 * @param machineCpuPct     the machine's CPU use, %
 * @param gcPauseMs         GC pause time in the last interval
 * @param emitBacklogBlocks blocks waiting to be sent to Kafka
 * @param rttMillis         round trip of {@code SELECT 1} to each target endpoint, under the step's load
 * @param clientBound       the load generator's CPU ({@code loadGenCpuPct}, or the process's in version-1 events)
 *                          exceeded the configured threshold
 * @param loadGenCpuPct     CPU of the load generator's own threads (workers, emitter, Kafka client, probes), % of
 *                          the whole machine
 * @param pipelineCpuPct    CPU of the process's other Java threads (an in-process broker, aggregator, archiver), %
 *                          of the whole machine
 * @param jvmCpuPct         CPU of the JVM's own threads (JIT compilers, GC), % of the whole machine: the process's
 *                          CPU less that of every Java thread
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
        boolean clientBound,
        Double loadGenCpuPct,
        Double pipelineCpuPct,
        Double jvmCpuPct) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "client_health";


    public ClientHealth {
        rttMillis = rttMillis == null ? Map.of() : Map.copyOf(rttMillis);
    }

    /** A version-1 event: the process's CPU only. */
    public ClientHealth(String runId, long atEpochMs, String producerId, int stepId, double processCpuPct,
                        double machineCpuPct, long gcPauseMs, long emitBacklogBlocks, Map<String, Double> rttMillis,
                        boolean clientBound) {
        this(runId, atEpochMs, producerId, stepId, processCpuPct, machineCpuPct, gcPauseMs, emitBacklogBlocks,
                rttMillis, clientBound, null, null, null);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
