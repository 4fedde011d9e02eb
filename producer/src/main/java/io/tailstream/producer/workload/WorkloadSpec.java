package io.tailstream.producer.workload;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A workload as a plan names it: its name and options as text ({@code tables=8}). Immutable.
 *
 * @param name    workload name, one of {@link Workloads#names()}
 * @param options option values by name; validated when the workload is created. Keys starting with
 *                {@link #EXPECT_PREFIX} are not workload options but the plan's expectations of the data set (they
 *                travel in the step's {@code options} so the report can check them)
 */
public record WorkloadSpec(String name, Map<String, String> options) {

    /** Prefix of the reserved option keys that hold expectations, not workload options. */
    public static final String EXPECT_PREFIX = "expect.";
    /** "true": the workload's data (tables and indexes) should be larger than the buffer pool. */
    public static final String EXPECT_DATA_LARGER_THAN_BUFFER_POOL = EXPECT_PREFIX + "dataLargerThanBufferPool";
    private static final Set<String> EXPECTATIONS = Set.of(EXPECT_DATA_LARGER_THAN_BUFFER_POOL);

    public WorkloadSpec {
        Objects.requireNonNull(name, "workload name");
        options = options == null ? Map.of() : Map.copyOf(new TreeMap<>(options));
    }

    /** The expectation entries of {@link #options}, by their full key. */
    public Map<String, String> expectations() {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> {
            if (k.startsWith(EXPECT_PREFIX)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * The workload options proper (expectations left out).
     *
     * @throws IllegalArgumentException for an unknown expectation or one that is not {@code true}/{@code false}
     */
    public Map<String, String> workloadOptions() {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> {
            if (!k.startsWith(EXPECT_PREFIX)) {
                out.put(k, v);
            } else if (!EXPECTATIONS.contains(k)) {
                throw new IllegalArgumentException("unknown expectation '" + k + "' (known: "
                        + new TreeMap<>(Map.of(EXPECT_DATA_LARGER_THAN_BUFFER_POOL, "")).keySet() + ")");
            } else if (!v.equals("true") && !v.equals("false")) {
                throw new IllegalArgumentException("expectation '" + k + "' must be true or false, was '" + v + "'");
            }
        });
        return out;
    }

    /** True if the plan expects the workload's data to be larger than the buffer pool. */
    public boolean expectsDataLargerThanBufferPool() {
        return "true".equals(options.get(EXPECT_DATA_LARGER_THAN_BUFFER_POOL));
    }

    public static WorkloadSpec of(String name) {
        return new WorkloadSpec(name, Map.of());
    }
}
