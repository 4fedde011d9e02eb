package io.tailstream.aggregator.topology;

import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;

/**
 * A hook on what the topology emits, called on the stream thread that emits it (so implementations must be thread
 * safe and fast: no I/O). Methods are no-op defaults, so the topology calls them unconditionally.
 *
 * <p>Under exactly-once the call happens when the record is sent, before its transaction commits: after a crash
 * the same window (same scope and start) or stall (same key) can be seen again, and an aborted record is not taken
 * back. A listener must therefore replace by key rather than add ({@link io.tailstream.aggregator.http.LiveWindows}
 * does).
 */
public interface TopologyListener {

    /** The no-op listener the plain {@link AggregatorTopology#build(io.tailstream.aggregator.AggregatorConfig)} uses. */
    TopologyListener NONE = new TopologyListener() {};

    /** A base window on its way to {@code tailstream.windows}: a closed window, or a late correction of one. */
    default void onWindow(WindowStats window) {}

    /**
     * A roll-up window (10 s, 60 s, ... of merged base windows) on its way to {@code tailstream.windows}: complete, or
     * a roll-up late correction ({@code lateCount == count}).
     */
    default void onRollup(WindowStats rollup) {}

    /** A stall event on its way to {@code tailstream.stalls} (open while it lasts, once more when it ends). */
    default void onStall(StallEvent stall) {}

    /** A control event read and decoded from {@code tailstream.control} (again after a restart or rebalance). */
    default void onControl(ControlEvent event) {}

    /**
     * An input record on its way to {@code tailstream.deadletter}.
     *
     * @param topic  the topic it was read from
     * @param reason its reason code ({@link DeadLetters}, e.g. {@link DeadLetters#UNSUPPORTED_VERSION})
     * @param runId  the run its key names, "" if none
     */
    default void onDeadLetter(String topic, String reason, String runId) {}

    /** Every listener of {@code listeners} in turn, each call in the given order. */
    static TopologyListener all(java.util.List<TopologyListener> listeners) {
        java.util.List<TopologyListener> each = java.util.List.copyOf(listeners);
        if (each.size() == 1) {
            return each.get(0);
        }
        return new TopologyListener() {
            @Override
            public void onWindow(WindowStats window) {
                each.forEach(l -> l.onWindow(window));
            }

            @Override
            public void onRollup(WindowStats rollup) {
                each.forEach(l -> l.onRollup(rollup));
            }

            @Override
            public void onStall(StallEvent stall) {
                each.forEach(l -> l.onStall(stall));
            }

            @Override
            public void onControl(ControlEvent event) {
                each.forEach(l -> l.onControl(event));
            }

            @Override
            public void onDeadLetter(String topic, String reason, String runId) {
                each.forEach(l -> l.onDeadLetter(topic, reason, runId));
            }
        };
    }
}
