package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.aggregator.window.WindowAggregateSerde;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.JsonSerde;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The aggregator's Kafka Streams topology, built by a pure function of its configuration (no I/O, no clients), so
 * the application and the {@code TopologyTestDriver} tests run exactly the same graph:
 *
 * <pre>
 *  tailstream.samples ─▶ decode-blocks ─┬─▶ (dead letters) ─▶ tailstream.deadletter
 *   (block bytes)        [stage 1]      └─▶ partials-by-scope (repartition, key runId/stepId/op, ts = window start)
 *                                            ─▶ merge-partials: tumbling window + grace, emit on window close [stage 2]
 *                                            ─▶ drop tick-only windows ─▶ WindowStats JSON ─▶ tailstream.windows
 * </pre>
 *
 * Every store is in memory (RocksDB is not on the class path) and change-logged, so exactly-once processing holds
 * across restarts. See the package documentation for the design and its costs.
 */
public final class AggregatorTopology {

    /** Stage 1's store of end-of-step markers whose ticks are still due. */
    public static final String PENDING_STEP_ENDS_STORE = "pending-step-ends";
    /** Stage 2's window store of merged aggregates (queryable by scope key and window). */
    public static final String WINDOW_STORE = "window-aggregates";
    /** Name of the repartition topic of partials (prefixed by the application id and suffixed by Streams). */
    public static final String PARTIALS_REPARTITION = "partials-by-scope";

    private AggregatorTopology() {}

    /** Builds the topology; reads nothing but the config. */
    public static Topology build(AggregatorConfig config) {
        Serde<WindowAggregate> aggregateSerde = new WindowAggregateSerde();
        StreamsBuilder builder = new StreamsBuilder();

        KStream<String, StageOne> decoded = builder
                .stream(Topics.SAMPLES, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("samples"))
                .process(new DecodeSupplier(config), Named.as("decode-blocks"));

        Map<String, KStream<String, StageOne>> branches = decoded.split(Named.as("decoded-"))
                .branch((key, value) -> value instanceof StageOne.DeadLetter,
                        Branched.withConsumer(dead -> dead
                                .map((key, value) -> {
                                    StageOne.DeadLetter d = (StageOne.DeadLetter) value;
                                    return KeyValue.pair(d.key(), d.value());
                                }, Named.as("dead-letter-unwrap"))
                                .to(Topics.DEAD_LETTER, Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                                        .withName("dead-letters")), "dead"))
                .defaultBranch(Branched.as("partials"));

        Duration retention = config.windowSize().plus(config.grace());
        Materialized<String, WindowAggregate, WindowStore<Bytes, byte[]>> windowStore =
                Materialized.<String, WindowAggregate>as(
                                Stores.inMemoryWindowStore(WINDOW_STORE, retention, config.windowSize(), false))
                        .withKeySerde(Serdes.String())
                        .withValueSerde(aggregateSerde);

        branches.get("decoded-partials")
                .mapValues(value -> ((StageOne.Partial) value).aggregate(), Named.as("partial-unwrap"))
                .repartition(Repartitioned.<String, WindowAggregate>as(PARTIALS_REPARTITION)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(aggregateSerde))
                .groupByKey(Grouped.<String, WindowAggregate>as("partials-grouped")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(aggregateSerde))
                .windowedBy(TimeWindows.ofSizeAndGrace(config.windowSize(), config.grace()))
                .emitStrategy(EmitStrategy.onWindowClose())
                .aggregate(WindowAggregate::new, (scope, partial, aggregate) -> aggregate.mergeFrom(partial),
                        Named.as("merge-partials"), windowStore)
                .toStream(Named.as("closed-windows"))
                .filter((window, aggregate) -> aggregate.emittable(), Named.as("drop-tick-only-windows"))
                .map((window, aggregate) -> KeyValue.pair(window.key(),
                                aggregate.toWindowStats(window.window().start(), window.window().end())),
                        Named.as("to-window-stats"))
                .to(Topics.WINDOWS, Produced.with(Serdes.String(), new JsonSerde<>(WindowStats.class))
                        .withName("windows"));

        return builder.build();
    }

    private static final class DecodeSupplier implements ProcessorSupplier<byte[], byte[], String, StageOne> {
        private final AggregatorConfig config;

        DecodeSupplier(AggregatorConfig config) {
            this.config = config;
        }

        @Override
        public Processor<byte[], byte[], String, StageOne> get() {
            return new BlockDecodeProcessor(config.windowSizeMs(), config.graceMs(), config.endOfStepCheckInterval(),
                    PENDING_STEP_ENDS_STORE);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            StoreBuilder<KeyValueStore<String, PendingStepEnd>> store = Stores.keyValueStoreBuilder(
                    Stores.inMemoryKeyValueStore(PENDING_STEP_ENDS_STORE), Serdes.String(),
                    new JsonSerde<>(PendingStepEnd.class));
            return Set.of(store);
        }
    }
}
