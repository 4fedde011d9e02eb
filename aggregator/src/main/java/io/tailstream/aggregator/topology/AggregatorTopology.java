package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.aggregator.window.WindowAggregateSerde;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.JsonSerde;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.aggregator.step.ScopeState;
import io.tailstream.aggregator.step.StepInput;
import io.tailstream.aggregator.step.StepMeta;
import io.tailstream.aggregator.step.RunState;
import io.tailstream.aggregator.step.StepOutput;
import io.tailstream.aggregator.step.StepProcessor;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
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
 *                                            ─▶ merge-partials: window store, emit on close, late corrections [stage 2]
 *                                            ├─▶ WindowStats JSON ─▶ tailstream.windows
 *                                            └─▶ step-input (+ tailstream.control; repartition by run, as many
 *                                                 partitions as the samples topic)
 *                                                 ─▶ steps: stalls, roll-ups, summaries, run summaries [stage 3]
 *                                                 ─▶ tailstream.stalls / tailstream.summaries /
 *                                                    tailstream.run-summaries / tailstream.windows
 * </pre>
 *
 * Every store is in memory (RocksDB is not on the class path) and change-logged, so exactly-once processing holds
 * across restarts. See the package documentation for the design and its costs.
 */
public final class AggregatorTopology {

    /** Stage 1's store of end-of-step markers whose ticks are still due. */
    public static final String PENDING_STEP_ENDS_STORE = "pending-step-ends";
    /** Stage 1's hook store that flushes its combined partials when the task prepares a commit. */
    public static final String DECODE_COMMIT_HOOK = "decode-commit-hook";
    /**
     * Latency bucket sets (186 KB each: one per partial builder, plus those borrowed for failed and warm-up samples)
     * stage 1 may have in use before it flushes early: bounds its heap when a commit interval spans many windows, as
     * when a backlog is replayed.
     */
    static final int MAX_COMBINED_PARTIALS = 64;
    /** Stage 1's store of the producers ({@code runId/producerId}) whose data the task's partition carries. */
    public static final String HOME_PRODUCERS_STORE = "home-producers";
    /** Stage 2's window store of merged aggregates (queryable by scope key and window). */
    public static final String WINDOW_STORE = "window-aggregates";
    /** Name of the repartition topic of partials (prefixed by the application id and suffixed by Streams). */
    public static final String PARTIALS_REPARTITION = "partials-by-scope";
    /** Stage 2's store of its stream time and close bound (per task). */
    public static final String MERGE_PROGRESS_STORE = "merge-progress";
    /** Stage 2's store of the producers of scopes with open windows, and their end-of-step ticks. */
    public static final String MERGE_PRODUCERS_STORE = "merge-producers";
    /**
     * Name of the repartition topic of closed windows, scope ends and control events, keyed by run (as many partitions
     * as the samples topic).
     */
    public static final String STEP_INPUT_REPARTITION = "step-input";
    /** Stage 3's store of per-scope state (summary accumulators, stall detectors, open roll-ups). */
    public static final String SCOPE_STORE = "step-scopes";
    /** Stage 3's store of per-step state (block accounting, producers). */
    public static final String STEP_STORE = "steps";
    /** Stage 3's store of per-run state for run summaries (steps' descriptions and summary figures). */
    public static final String RUN_STORE = "run-summaries";

    private AggregatorTopology() {}

    /** Builds the topology; reads nothing but the config. */
    public static Topology build(AggregatorConfig config) {
        return build(config, TopologyListener.NONE);
    }

    /**
     * Builds the topology with a listener on the base windows and stall events it emits (the live monitor); the
     * graph, its stores and topics are the same whatever the listener.
     */
    public static Topology build(AggregatorConfig config, TopologyListener listener) {
        return build(config, listener, 0);
    }

    /**
     * Builds the topology with stage 3 spread over {@code stepPartitions} partitions of
     * {@value #STEP_INPUT_REPARTITION} (keyed by run): the aggregator passes the samples topic's partition count, so
     * stage 3 runs as many tasks as stages 1 and 2. 0 leaves the count to Kafka Streams, which may settle on the
     * control topic's single partition (it counts the first source topic it resolves): one task for every run, which
     * is as correct, only not parallel; {@code TopologyTestDriver} ignores partition counts.
     */
    public static Topology build(AggregatorConfig config, TopologyListener listener, int stepPartitions) {
        Objects.requireNonNull(listener, "listener");
        if (stepPartitions < 0) {
            throw new IllegalArgumentException("stepPartitions must not be negative, was " + stepPartitions);
        }
        Serde<WindowAggregate> aggregateSerde = new WindowAggregateSerde();
        Serde<WindowStats> windowSerde = new JsonSerde<>(WindowStats.class);
        StreamsBuilder builder = new StreamsBuilder();

        KStream<String, StageOne> decoded = builder
                .stream(Topics.SAMPLES, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("samples"))
                .process(new DecodeSupplier(config, listener), Named.as("decode-blocks"));

        Map<String, KStream<String, StageOne>> branches = decoded.split(Named.as("decoded-"))
                .branch((key, value) -> value instanceof StageOne.DeadLetter, Branched.as("dead"))
                .defaultBranch(Branched.as("partials"));
        KStream<String, StageOne> deadBlocks = branches.get("decoded-dead");
        deadBlocks.map((key, value) -> {
                    StageOne.DeadLetter d = (StageOne.DeadLetter) value;
                    return KeyValue.pair(d.key(), d.value());
                }, Named.as("dead-letter-unwrap"))
                .to(Topics.DEAD_LETTER, Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("dead-letters"));
        // counted in the run summary of the run the key names
        KStream<String, StepInput> deadBlockRuns = deadBlocks
                .filter((key, value) -> !((StageOne.DeadLetter) value).runId().isEmpty(),
                        Named.as("dead-letter-with-run"))
                .map((key, value) -> {
                    StageOne.DeadLetter d = (StageOne.DeadLetter) value;
                    return KeyValue.pair(d.runId(), StepInput.deadLetter(d.runId(), d.reason()));
                }, Named.as("dead-letter-to-step-input"));

        KStream<String, StepInput> closed = branches.get("decoded-partials")
                .mapValues(value -> ((StageOne.Partial) value).aggregate(), Named.as("partial-unwrap"))
                .repartition(Repartitioned.<String, WindowAggregate>as(PARTIALS_REPARTITION)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(aggregateSerde))
                .process(new MergeSupplier(config), Named.as("merge-partials"));

        closed.filter((run, in) -> StepInput.WINDOW.equals(in.kind()) && in.publish(),
                        Named.as("published-windows"))
                .peek((run, in) -> listener.onWindow(in.window()), Named.as("window-listener"))
                .map((run, in) -> KeyValue.pair(in.window().scopeKey(), in.window()), Named.as("to-window-stats"))
                .to(Topics.WINDOWS, Produced.with(Serdes.String(), windowSerde).withName("windows"));

        // keyed by run id: a run's control events meet its windows in one stage-3 task, runs spread over the tasks
        // unreadable control records go to the dead-letter topic, like corrupt blocks
        Map<String, KStream<String, ControlDecodeProcessor.Out>> controlRead = builder
                .stream(Topics.CONTROL, Consumed.with(Serdes.String(), Serdes.ByteArray()).withName("control"))
                .process(() -> new ControlDecodeProcessor(listener), Named.as("control-decode"))
                .split(Named.as("control-"))
                .branch((key, value) -> value instanceof ControlDecodeProcessor.DeadLetter, Branched.as("dead"))
                .defaultBranch(Branched.as("events"));
        KStream<String, ControlDecodeProcessor.Out> deadControl = controlRead.get("control-dead");
        deadControl.map((key, value) -> {
                    ControlDecodeProcessor.DeadLetter d = (ControlDecodeProcessor.DeadLetter) value;
                    return KeyValue.pair(d.key(), d.value());
                }, Named.as("control-dead-letter-unwrap"))
                .to(Topics.DEAD_LETTER, Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("control-dead-letters"));
        KStream<String, StepInput> control = controlRead.get("control-events")
                .mapValues(value -> ((ControlDecodeProcessor.Event) value).input(), Named.as("control-to-step-input"))
                .merge(deadControl
                        .filter((key, value) -> !((ControlDecodeProcessor.DeadLetter) value).runId().isEmpty(),
                                Named.as("control-dead-letter-with-run"))
                        .mapValues(value -> {
                            ControlDecodeProcessor.DeadLetter d = (ControlDecodeProcessor.DeadLetter) value;
                            return StepInput.deadLetter(d.runId(), d.reason());
                        }, Named.as("control-dead-letter-to-step-input")), Named.as("control-and-dead-letters"))
                .merge(deadBlockRuns, Named.as("control-and-dead-blocks"));

        // as many partitions as the samples topic (see build): several runs are analysed in parallel, and several
        // aggregator instances of one application id share them
        Map<String, KStream<String, StepOutput>> outputs = closed
                .merge(control, Named.as("step-inputs"))
                .repartition(stepInput(stepPartitions))
                .process(new StepSupplier(config), Named.as("steps"))
                .split(Named.as("step-"))
                .branch((key, value) -> value instanceof StepOutput.Stall, Branched.as("stalls"))
                .branch((key, value) -> value instanceof StepOutput.Summary, Branched.as("summaries"))
                .branch((key, value) -> value instanceof StepOutput.RunSummaryOut, Branched.as("run-summaries"))
                .defaultBranch(Branched.as("rollups"));
        outputs.get("step-stalls")
                .mapValues(v -> ((StepOutput.Stall) v).event(), Named.as("stall-unwrap"))
                .peek((key, stall) -> listener.onStall(stall), Named.as("stall-listener"))
                .to(Topics.STALLS, Produced.with(Serdes.String(), new JsonSerde<>(StallEvent.class))
                        .withName("stalls-out"));
        outputs.get("step-summaries")
                .mapValues(v -> ((StepOutput.Summary) v).summary(), Named.as("summary-unwrap"))
                .to(Topics.SUMMARIES, Produced.with(Serdes.String(), new JsonSerde<>(StepSummary.class))
                        .withName("summaries-out"));
        outputs.get("step-run-summaries")
                .mapValues(v -> ((StepOutput.RunSummaryOut) v).summary(), Named.as("run-summary-unwrap"))
                .to(Topics.RUN_SUMMARIES, Produced.with(Serdes.String(), new JsonSerde<>(RunSummary.class))
                        .withName("run-summaries-out"));
        outputs.get("step-rollups")
                .mapValues(v -> ((StepOutput.Rollup) v).window(), Named.as("rollup-unwrap"))
                .peek((key, rollup) -> listener.onRollup(rollup), Named.as("rollup-listener"))
                .to(Topics.WINDOWS, Produced.with(Serdes.String(), windowSerde).withName("rollups-out"));

        return builder.build();
    }

    /** An in-memory key-value store of string keys, logged to its changelog. */
    private static <V> StoreBuilder<KeyValueStore<String, V>> keyValueStore(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), values);
    }

    private static Repartitioned<String, StepInput> stepInput(int partitions) {
        Repartitioned<String, StepInput> r = Repartitioned.<String, StepInput>as(STEP_INPUT_REPARTITION)
                .withKeySerde(Serdes.String())
                .withValueSerde(new JsonSerde<>(StepInput.class));
        return partitions > 0 ? r.withNumberOfPartitions(partitions) : r;
    }

    private record MergeSupplier(AggregatorConfig config)
            implements ProcessorSupplier<String, WindowAggregate, String, StepInput> {

        @Override
        public Processor<String, WindowAggregate, String, StepInput> get() {
            return new WindowMergeProcessor(config.windowSizeMs(), config.graceMs(), config.stepEndWait(), WINDOW_STORE,
                    MERGE_PROGRESS_STORE, MERGE_PRODUCERS_STORE);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            // open windows start after stream time - grace - size; one window more of margin
            Duration retention = config.windowSize().multipliedBy(2).plus(config.grace());
            StoreBuilder<WindowStore<String, WindowAggregate>> windows = Stores.windowStoreBuilder(
                    Stores.inMemoryWindowStore(WINDOW_STORE, retention, config.windowSize(), false),
                    Serdes.String(), new WindowAggregateSerde()).withCachingEnabled();
            return Set.of(windows, keyValueStore(MERGE_PROGRESS_STORE, Serdes.Long()),
                    keyValueStore(MERGE_PRODUCERS_STORE, new JsonSerde<>(ScopeProducers.class)));
        }
    }

    private record StepSupplier(AggregatorConfig config)
            implements ProcessorSupplier<String, StepInput, String, StepOutput> {

        @Override
        public Processor<String, StepInput, String, StepOutput> get() {
            return new StepProcessor(config.stalls(), config.rollupsMs(), config.stepEndWait(), SCOPE_STORE, STEP_STORE,
                    RUN_STORE);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            return Set.of(keyValueStore(SCOPE_STORE, new JsonSerde<>(ScopeState.class)).withCachingEnabled(),
                    keyValueStore(STEP_STORE, new JsonSerde<>(StepMeta.class)),
                    keyValueStore(RUN_STORE, new JsonSerde<>(RunState.class)));
        }
    }

    private record DecodeSupplier(AggregatorConfig config, TopologyListener listener)
            implements ProcessorSupplier<byte[], byte[], String, StageOne> {

        @Override
        public Processor<byte[], byte[], String, StageOne> get() {
            return new BlockDecodeProcessor(config.windowSizeMs(), config.graceMs(), config.endOfStepCheckInterval(),
                    PENDING_STEP_ENDS_STORE, HOME_PRODUCERS_STORE, DECODE_COMMIT_HOOK, MAX_COMBINED_PARTIALS,
                    listener);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            return Set.of(keyValueStore(PENDING_STEP_ENDS_STORE, new JsonSerde<>(PendingStepEnd.class)),
                    keyValueStore(HOME_PRODUCERS_STORE, Serdes.Boolean()), PreCommitHook.builder(DECODE_COMMIT_HOOK));
        }
    }
}
