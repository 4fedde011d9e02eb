package io.tailstream.aggregator.testing;

import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.topology.AggregatorTopology;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.JsonSerde;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The aggregator's topology in a {@link TopologyTestDriver}, built from a config with the aggregator's own Streams
 * properties, with its two input topics (sample blocks and control events) and typed readers of its JSON outputs.
 * Wall-clock time starts at the epoch millisecond given. Not thread safe, as the driver it wraps.
 */
public final class TopologyHarness implements AutoCloseable {

    private final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> samples;
    private final TestInputTopic<String, byte[]> control;

    public TopologyHarness(AggregatorConfig config, Path stateDir, long startEpochMs) {
        this(config, stateDir, startEpochMs, Map.of());
    }

    /** As the three-argument constructor, with {@code overrides} put over the aggregator's Streams properties. */
    public TopologyHarness(AggregatorConfig config, Path stateDir, long startEpochMs, Map<String, ?> overrides) {
        Properties props = Aggregator.streamsProperties("unused:9092", config, stateDir);
        props.putAll(overrides);
        driver = new TopologyTestDriver(AggregatorTopology.build(config), props, Instant.ofEpochMilli(startEpochMs));
        samples = driver.createInputTopic(Topics.SAMPLES, new StringSerializer(), new ByteArraySerializer());
        control = driver.createInputTopic(Topics.CONTROL, new StringSerializer(), new ByteArraySerializer());
    }

    /** The driver itself, for what the harness does not wrap (state stores, topics of other serdes). */
    public TopologyTestDriver driver() {
        return driver;
    }

    /** Moves the driver's wall clock on: the punctuations due by then (end-of-step ticks) run. */
    public void advanceWallClockTime(Duration advance) {
        driver.advanceWallClockTime(advance);
    }

    /** The sample-block topic: record keys are {@code run/producer}, values encoded blocks. */
    public TestInputTopic<String, byte[]> samples() {
        return samples;
    }

    /** Sends a control event keyed by its run, as the producer does. */
    public void sendControl(ControlEvent e) {
        control.pipeInput(e.runId(), Json.write(e));
    }

    /** A reader of an output topic whose values are JSON events of {@code type}. */
    public <V> TestOutputTopic<String, V> output(String topic, Class<V> type) {
        return driver.createOutputTopic(topic, new StringDeserializer(), new JsonSerde<>(type).deserializer());
    }

    @Override
    public void close() {
        driver.close();
    }
}
