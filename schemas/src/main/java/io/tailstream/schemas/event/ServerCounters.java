package io.tailstream.schemas.event;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The target database's own counters, read once a second during a step on a connection of the producer's own, so
 * that a stall can be explained from the server's side (dirty pages, checkpoint age, row-lock waits, sessions waiting
 * on a lock). Names are the product's own ({@code Innodb_buffer_pool_pages_dirty}, {@code pg_stat_wal.wal_bytes});
 * {@code state.*} (MySQL/MariaDB thread states) and {@code wait.*} (PostgreSQL wait events) count the sessions in
 * each state and are listed only when non-zero.
 *
 * @param target      the target's name in the plan
 * @param gauges      values at the reading (sessions running, dirty pages, checkpoint age)
 * @param counters    cumulative values since the server started or its statistics were reset (log bytes written,
 *                    row-lock waits, commits): consumers take differences between consecutive readings of the same
 *                    producer and target; a value lower than the one before means a reset
 * @param readMicros  how long the reading took, µs (its queries, one after the other)
 * @param error       why the reading failed (then both maps are empty), or null
 */
public record ServerCounters(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        String target,
        Map<String, Long> gauges,
        Map<String, Long> counters,
        long readMicros,
        String error) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "server_counters";

    /** The kind of a gauge in the archive's {@code server_counters} dataset. */
    public static final String GAUGE = "gauge";
    /** The kind of a counter in the archive's {@code server_counters} dataset. */
    public static final String COUNTER = "counter";

    public ServerCounters {
        // sorted by name: the same reading always writes the same JSON
        gauges = sorted(gauges);
        counters = sorted(counters);
    }

    private static Map<String, Long> sorted(Map<String, Long> values) {
        return values == null ? Map.of() : Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    @Override
    public String type() {
        return TYPE;
    }
}
