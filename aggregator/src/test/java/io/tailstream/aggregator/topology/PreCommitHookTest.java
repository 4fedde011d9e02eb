package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.junit.jupiter.api.Test;

/**
 * The contract {@link PreCommitHook} relies on, checked against the Kafka Streams on the class path: a task that
 * prepares a commit calls {@code flushCache()} on each of its stores that implement Streams' internal
 * {@code CachedStateStore}, and what the hook's action forwards then goes out with that commit. Stage 1 holds its
 * combined partials on the heap until that call; if a Kafka upgrade stopped making it, partials would never be sent.
 * This test fails in a second if that happens, before any pipeline test would.
 */
class PreCommitHookTest {

    private static final String HOOK = "test-commit-hook";

    /** Buffers the values it receives on the heap and forwards them only when its task prepares a commit. */
    private static final class BufferingProcessor implements Processor<String, String, String, String> {
        private final List<String> buffered = new ArrayList<>();
        private final List<Integer> flushSizes;

        BufferingProcessor(List<Integer> flushSizes) {
            this.flushSizes = flushSizes;
        }

        @Override
        public void init(ProcessorContext<String, String> context) {
            PreCommitHook hook = context.getStateStore(HOOK);
            hook.onCommit(context, () -> {
                flushSizes.add(buffered.size());
                for (String v : buffered) {
                    context.forward(new Record<>(v, v, context.currentSystemTimeMs()));
                }
                buffered.clear();
            });
        }

        @Override
        public void process(Record<String, String> record) {
            buffered.add(record.value());
        }
    }

    @Test
    void taskCommit_callsTheHook_andWhatItForwardsGoesOut() {
        List<Integer> flushSizes = new ArrayList<>();
        ProcessorSupplier<String, String, String, String> supplier = new ProcessorSupplier<>() {
            @Override
            public Processor<String, String, String, String> get() {
                return new BufferingProcessor(flushSizes);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return Set.of(PreCommitHook.builder(HOOK));
            }
        };
        Topology topology = new Topology();
        topology.addSource("in", "in");
        topology.addProcessor("buffer", supplier, "in");
        topology.addSink("out", "out", "buffer");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "pre-commit-hook-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props)) {
            TestInputTopic<String, String> in = driver.createInputTopic("in", new StringSerializer(),
                    new StringSerializer());
            TestOutputTopic<String, String> out = driver.createOutputTopic("out", new StringDeserializer(),
                    new StringDeserializer());
            // the test driver commits after each input record, as a task commits after its records
            in.pipeInput("k", "first");
            assertThat(out.readValuesToList()).containsExactly("first");
            in.pipeInput("k", "second");
            in.pipeInput("k", "third");
            assertThat(out.readValuesToList()).containsExactly("second", "third");
            assertThat(flushSizes).as("the hook ran at each commit with what the records of that commit left")
                    .startsWith(1, 1, 1);
        }
    }
}
