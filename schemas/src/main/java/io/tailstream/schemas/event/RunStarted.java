package io.tailstream.schemas.event;

import java.util.List;
import java.util.Map;

/**
 * A producer started a run.
 *
 * @param planName name of the plan (a file's name, or "demo", or "adhoc")
 * @param targets  the targets of the plan, redacted
 * @param client   the client environment: host name, OS, JVM, CPU count, tailstream version
 * @param settings the effective run configuration, secrets masked (either version reads; {@link RunSettings#NONE}
 *                 when the event carries none)
 */
public record RunStarted(
        String runId,
        long atEpochMs,
        String producerId,
        String planName,
        List<TargetInfo> targets,
        Map<String, String> client,
        RunSettings settings) implements ControlEvent {

    /** The {@code "type"} of its JSON, see {@link ControlEvent#type()}. */
    public static final String TYPE = "run_started";


    public RunStarted {
        targets = targets == null ? List.of() : List.copyOf(targets);
        client = client == null ? Map.of() : Map.copyOf(client);
        settings = settings == null ? RunSettings.NONE : settings;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
