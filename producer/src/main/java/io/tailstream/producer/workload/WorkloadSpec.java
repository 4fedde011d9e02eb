package io.tailstream.producer.workload;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A workload as a plan names it: its name and options as text ({@code tables=8}). Immutable.
 *
 * @param name    workload name, one of {@link Workloads#names()}
 * @param options option values by name; validated when the workload is created
 */
public record WorkloadSpec(String name, Map<String, String> options) {

    public WorkloadSpec {
        Objects.requireNonNull(name, "workload name");
        options = options == null ? Map.of() : Map.copyOf(new TreeMap<>(options));
    }

    public static WorkloadSpec of(String name) {
        return new WorkloadSpec(name, Map.of());
    }
}
