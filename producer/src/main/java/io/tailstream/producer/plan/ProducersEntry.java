package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import java.time.Duration;

/**
 * {@code producers: 3}, or {@code producers: {count: 3, threads: each, joinTimeout: 10m}}: the load generators
 * that share the run.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class ProducersEntry {
    int count;
    boolean splitThreads = true;
    Duration joinTimeout;

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    ProducersEntry(int count) {
        this.count = checkCount(count);
    }

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    ProducersEntry(@JsonProperty(value = "count", required = true) Integer count) {
        if (count == null) {
            throw new IllegalArgumentException("count is needed (how many producers share the run)");
        }
        this.count = checkCount(count);
    }

    private static int checkCount(int n) {
        if (n < 1 || n > io.tailstream.producer.group.ProducerGroup.MAX_PRODUCERS) {
            throw new IllegalArgumentException("must be in 1.."
                    + io.tailstream.producer.group.ProducerGroup.MAX_PRODUCERS + ", was " + n);
        }
        return n;
    }

    @JsonSetter("threads")
    void threads(String v) {
        splitThreads = switch (v) {
            case "split" -> true;
            case "each" -> false;
            default -> throw new IllegalArgumentException("must be 'split' (the step's threads are shared"
                    + " out over the producers) or 'each' (every producer runs them all), was '" + v + "'");
        };
    }

    @JsonSetter("joinTimeout")
    void joinTimeout(String v) {
        joinTimeout = Durations.parsePositive(v);
    }

    io.tailstream.producer.group.ProducerGroup toGroup() {
        return new io.tailstream.producer.group.ProducerGroup(count, splitThreads, joinTimeout);
    }
}
