package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload and its options.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class WorkloadEntry extends Located {
    final String name;
    Map<String, String> options = Map.of();

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    WorkloadEntry(@JsonProperty(value = "name", required = true) String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be empty");
        }
        this.name = name;
    }

    @JsonSetter("options")
    void options(Map<String, Object> v) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : v.entrySet()) {
            Object o = e.getValue();
            if (o instanceof Map<?, ?> || o instanceof List<?> || o == null) {
                throw new IllegalArgumentException("option '" + e.getKey() + "' must be a single value, was "
                        + o);
            }
            out.put(e.getKey(), String.valueOf(o));
        }
        options = out;
    }

    /** Expectations of the data set: {@code expect: {dataLargerThanBufferPool: true}}. */
    Map<String, String> expect = Map.of();

    @JsonSetter("expect")
    void expect(Map<String, Object> v) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : v.entrySet()) {
            if (!e.getKey().equals("dataLargerThanBufferPool")) {
                throw new IllegalArgumentException("unknown expectation '" + e.getKey()
                        + "' (known: [dataLargerThanBufferPool])");
            }
            if (!(e.getValue() instanceof Boolean b)) {
                throw new IllegalArgumentException("expectation '" + e.getKey() + "' must be true or false, was "
                        + e.getValue());
            }
            out.put(io.tailstream.producer.workload.WorkloadSpec.EXPECT_PREFIX + e.getKey(), b.toString());
        }
        expect = out;
    }
}
