package io.tailstream.schemas.event;

import java.util.List;

/**
 * A workload checked the target's data after a step, on a connection of the producer's own and in one snapshot of
 * the data: TPC-C's consistency conditions. One producer of a step checks (the first of its participants).
 *
 * @param target     the target's name in the plan
 * @param workload   the workload whose checks ran
 * @param checks     each check, in the workload's order; empty when they could not run
 * @param readMicros how long the checks took, µs
 * @param error      why the checks could not run (then {@code checks} is empty), or null
 */
public record DataChecked(
        String runId,
        long atEpochMs,
        String producerId,
        int stepId,
        String target,
        String workload,
        List<Check> checks,
        long readMicros,
        String error) implements StepEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "data_checked";

    public DataChecked {
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    /**
     * One check.
     *
     * @param name   the workload's name for it, e.g. {@code consistency_1}
     * @param held   whether the data met it
     * @param detail what was found where it did not hold (e.g. the first districts that break it), or null
     */
    public record Check(String name, boolean held, String detail) {}

    /** Whether the checks ran and every one held. */
    public boolean allHeld() {
        return error == null && !checks.isEmpty() && checks.stream().allMatch(Check::held);
    }

    @Override
    public String type() {
        return TYPE;
    }
}
