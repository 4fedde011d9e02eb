package io.tailstream.aggregator;

import io.tailstream.aggregator.topology.AggregatorTopology;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.aggregator.window.WindowAggregate;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running aggregator: the {@link AggregatorTopology} in a {@link KafkaStreams} application.
 *
 * <pre>{@code
 * try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults(), stateDir)) {
 *     aggregator.awaitRunning(Duration.ofSeconds(30));
 *     ... // windows appear on Topics.WINDOWS; see AggregationProgress
 * }
 * }</pre>
 *
 * <p>Thread safe: {@link #close()} may be called from any thread (e.g. a shutdown hook), more than once.
 */
public final class Aggregator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Aggregator.class);
    /** Sample blocks a stream task buffers per partition and a poll returns at most. */
    private static final int BUFFERED_BLOCKS = 5_000;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** How often the input lag is read until the aggregator has caught up. */
    private static final Duration CAUGHT_UP_CHECK = Duration.ofMillis(500);

    private final KafkaStreams streams;
    private final AggregatorConfig config;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch running = new CountDownLatch(1);
    private final AggregatorStatus status;
    /** Looks at the input lag until it reached 0 once (caught up). */
    private final ScheduledExecutorService watcher;

    private Aggregator(KafkaStreams streams, AggregatorConfig config, AggregatorStatus status) {
        this.streams = streams;
        this.config = config;
        this.status = status;
        this.watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tailstream-aggregator-lag");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the aggregator; returns once Kafka Streams is starting (use {@link #awaitRunning} to wait for the
     * first assignment). The topics of {@link io.tailstream.schemas.Topics} must exist (TopicProvisioner).
     *
     * @param stateDir directory for Kafka Streams' local state (checkpoints; the stores themselves are in memory)
     */
    public static Aggregator start(String bootstrapServers, AggregatorConfig config, Path stateDir) {
        return start(bootstrapServers, config, stateDir, TopologyListener.NONE);
    }

    /**
     * Starts the aggregator with a listener on the windows and stalls it emits (e.g. the live monitor's
     * {@link io.tailstream.aggregator.http.LiveWindows}); otherwise as {@link #start(String, AggregatorConfig, Path)}.
     */
    public static Aggregator start(String bootstrapServers, AggregatorConfig config, Path stateDir,
                                   TopologyListener listener) {
        return start(bootstrapServers, config, stateDir, listener,
                new AggregatorStatus(line -> LOG.info("aggregator {}: {}", config.applicationId(), line)));
    }

    /**
     * Starts the aggregator, reporting its lifecycle (starting, waiting for partitions, restoring state stores,
     * running, caught up) to {@code status}; otherwise as {@link #start(String, AggregatorConfig, Path,
     * TopologyListener)}.
     */
    public static Aggregator start(String bootstrapServers, AggregatorConfig config, Path stateDir,
                                   TopologyListener listener, AggregatorStatus status) {
        Objects.requireNonNull(status, "status");
        Properties props = streamsProperties(bootstrapServers, config, stateDir);
        int partitions = samplePartitions(props);
        KafkaStreams streams = new KafkaStreams(AggregatorTopology.build(config, listener, partitions), props);
        Aggregator aggregator = new Aggregator(streams, config, status);
        streams.setGlobalStateRestoreListener(status);
        streams.setUncaughtExceptionHandler(e -> {
            aggregator.failure.compareAndSet(null, e);
            LOG.error("aggregator {} failed; shutting down", config.applicationId(), e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((newState, oldState) -> {
            LOG.info("aggregator {}: {} -> {}", config.applicationId(), oldState, newState);
            status.onStreamsState(newState);
            if (newState == KafkaStreams.State.RUNNING) {
                aggregator.running.countDown();
            }
        });
        LOG.info("starting aggregator with {} against {}", config, bootstrapServers);
        status.starting("aggregator " + config.applicationId() + " against " + bootstrapServers);
        streams.start();
        aggregator.watcher.scheduleWithFixedDelay(() -> {
            try {
                if (status.checkCaughtUp(streams)) {
                    aggregator.watcher.shutdown();
                }
            } catch (RuntimeException e) {
                LOG.debug("input lag of aggregator {} not readable now", config.applicationId(), e);
            }
        }, CAUGHT_UP_CHECK.toMillis(), CAUGHT_UP_CHECK.toMillis(), TimeUnit.MILLISECONDS);
        return aggregator;
    }

    /**
     * Partitions of the samples topic: stage 3 gets as many (see {@link AggregatorTopology#build(AggregatorConfig,
     * TopologyListener, int)}).
     *
     * @throws IllegalStateException if the topic cannot be described (it does not exist, or the cluster is away)
     */
    private static int samplePartitions(Properties streamsProps) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, streamsProps.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        // security settings given as client overrides apply to this client too; prefixed ones are for others
        streamsProps.stringPropertyNames().stream()
                .filter(k -> AdminClientConfig.configNames().contains(k))
                .forEach(k -> p.put(k, streamsProps.get(k)));
        try (Admin admin = Admin.create(p)) {
            return admin.describeTopics(List.of(Topics.SAMPLES)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(Topics.SAMPLES).partitions().size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topic " + Topics.SAMPLES, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe topic " + Topics.SAMPLES + " at "
                    + streamsProps.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG) + " (it must exist before the aggregator"
                    + " starts): " + e.getMessage(), e);
        }
    }

    /**
     * The Kafka Streams properties the aggregator runs with: in-memory stores, the configured guarantee and commit
     * interval, reading from the earliest offset on first start, then the config's client overrides (which win).
     */
    public static Properties streamsProperties(String bootstrapServers, AggregatorConfig config, Path stateDir) {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(stateDir, "stateDir");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.processingGuarantee());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.streamThreads());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitInterval().toMillis());
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG,
                BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        // no global stores here; set so Kafka Streams does not warn on every start
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // Sample blocks are ~5 KB records (1,024 samples): fetch and buffer them in large batches. Measured with the
        // aggregation benchmark (docs/benchmarks.md): the defaults (1 MB per partition, 1,000 records)
        // cost 62 ns of broker CPU and 75 ns of stream-thread CPU per sample, these 41 and 66. Buffered blocks are
        // bounded by BUFFERED_BLOCKS per partition (~25 MB).
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), 8 * 1024 * 1024);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_BYTES_CONFIG), 64 * 1024 * 1024);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), BUFFERED_BLOCKS);
        p.put(StreamsConfig.BUFFERED_RECORDS_PER_PARTITION_CONFIG, BUFFERED_BLOCKS);
        p.putAll(config.clientOverrides());
        return p;
    }

    /**
     * Waits until Kafka Streams reports RUNNING for the first time.
     *
     * @return false on timeout
     * @throws IllegalStateException if the aggregator failed before running
     */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        boolean ok = running.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("aggregator " + config.applicationId() + " failed: " + t.getMessage(), t);
        }
        return ok;
    }

    /**
     * The live monitors of every instance of this application that Kafka Streams knows (their
     * {@code application.server}, {@code HOST:PORT}), sorted; empty when the instances do not advertise one, or
     * before the first assignment.
     */
    public java.util.List<String> instances() {
        try {
            return streams.metadataForAllStreamsClients().stream()
                    .map(m -> m.hostInfo())
                    .filter(h -> h.port() > 0)
                    .map(h -> (h.host().contains(":") ? "[" + h.host() + "]" : h.host()) + ":" + h.port())
                    .sorted().distinct().toList();
        } catch (org.apache.kafka.streams.errors.InvalidStateStoreException | IllegalStateException e) {
            return java.util.List.of(); // not started yet, or stopping
        }
    }

    /** Kafka Streams' current state. */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /** What the aggregator is doing (lifecycle, restoration progress, caught up). */
    public AggregatorStatus status() {
        return status;
    }

    /** The error that stopped the aggregator, if any. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * The base windows of a scope that are open right now (still collecting samples: stream time has not passed
     * their end plus grace), oldest first, read with Kafka Streams interactive queries from the window store of this
     * instance's partitions. Closed windows are no longer in the store: they are in {@code tailstream.windows}.
     *
     * @throws InvalidStateStoreException if the store cannot be queried now (starting, rebalancing, stopped)
     */
    public List<WindowStats> openWindows(String runId, int stepId, String op) {
        ReadOnlyWindowStore<String, WindowAggregate> store = streams.store(StoreQueryParameters.fromNameAndType(
                AggregatorTopology.WINDOW_STORE, QueryableStoreTypes.<String, WindowAggregate>windowStore()));
        long sizeMs = config.windowSizeMs();
        List<WindowStats> open = new ArrayList<>();
        try (WindowStoreIterator<WindowAggregate> it = store.fetch(WindowStats.scopeKey(runId, stepId, op),
                Instant.EPOCH, Instant.ofEpochMilli(Long.MAX_VALUE / 2))) {
            while (it.hasNext()) {
                KeyValue<Long, WindowAggregate> kv = it.next();
                if (kv.value != null && kv.value.emittable()) {
                    open.add(kv.value.toWindowStats(kv.key, kv.key + sizeMs));
                }
            }
        }
        return open;
    }

    /** The underlying application, for interactive queries of {@link AggregatorTopology#WINDOW_STORE}. */
    public KafkaStreams streams() {
        return streams;
    }

    /** Stops processing (committing what was processed) and releases the clients. Idempotent. */
    @Override
    public void close() {
        watcher.shutdownNow();
        if (!streams.close(CLOSE_TIMEOUT)) {
            LOG.warn("aggregator {} did not close within {}", config.applicationId(), CLOSE_TIMEOUT);
        }
    }
}
