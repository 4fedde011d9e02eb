package io.tailstream.aggregator.testing;

import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An aggregator in its own JVM, for the kill-and-restart test: {@code bootstrap applicationId stateDir}. Runs until
 * killed; prints {@code RUNNING} once Kafka Streams runs. Short consumer session so a restarted instance takes over
 * the killed one's partitions quickly.
 */
public final class AggregatorChildMain {

    private AggregatorChildMain() {}

    public static void main(String[] args) throws Exception {
        AggregatorConfig config = config(args[1]);
        try (Aggregator aggregator = Aggregator.start(args[0], config, Path.of(args[2]))) {
            if (!aggregator.awaitRunning(Duration.ofSeconds(120))) {
                throw new IllegalStateException("aggregator not running after 120 s: " + aggregator.state());
            }
            System.out.println("RUNNING");
            System.out.flush();
            while (aggregator.failure().isEmpty()) {
                Thread.sleep(200);
            }
            throw new IllegalStateException("aggregator failed", aggregator.failure().get());
        }
    }

    /** The configuration both the child and the in-process reference use. */
    public static AggregatorConfig config(String applicationId) {
        return AggregatorConfig.defaults().withApplicationId(applicationId)
                .withRollups(List.of(Duration.ofSeconds(10)))
                .withClientOverrides(Map.of("consumer.session.timeout.ms", "6000",
                        "consumer.heartbeat.interval.ms", "1000"));
    }
}
