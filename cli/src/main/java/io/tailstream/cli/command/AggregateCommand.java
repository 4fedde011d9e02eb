package io.tailstream.cli.command;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.AggregatorStatus;
import io.tailstream.aggregator.alert.AlertWebhook;
import io.tailstream.aggregator.http.LiveReplay;
import io.tailstream.aggregator.http.LiveWindows;
import io.tailstream.aggregator.http.MonitorServer;
import io.tailstream.aggregator.http.OpenWindows;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.HttpOptions;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs the Kafka Streams aggregator until interrupted (Ctrl-C / SIGTERM close it cleanly). */
@Command(name = "aggregate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the aggregator: sample blocks in; 1 s window stats and roll-ups per (run, step, op), stall"
                + " events and step summaries out, exactly once.",
                "Runs until interrupted; start several with the same --application-id to share the load."})
public final class AggregateCommand implements Callable<Integer> {

    /** Longest wait for Kafka Streams to run, restoration of the state stores not counted. */
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);
    /**
     * How long a stop (Ctrl-C, SIGTERM) waits for the command to close what outlives the aggregator: the live page,
     * and the alerts still queued ({@link AlertWebhook#close()} posts them for up to 5 s).
     */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(15);

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--application-id", paramLabel = "ID", defaultValue = "tailstream-aggregator",
            description = "Kafka Streams application id (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Kafka Streams state directory"
            + " (default: a temporary folder).")
    Path stateDir;

    @Option(names = "--window", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "1s",
            description = "Base window (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--grace", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "2s",
            description = "How long a window waits for late samples (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--producer-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "60s", description = "How long (wall clock) a step with several producers waits, after the"
                    + " first one ended, for the others' ends before its windows close and its summaries are published"
                    + " incomplete, naming the missing producers (default: ${DEFAULT-VALUE}).")
    Duration producerTimeout;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + Topics.DEFAULT_SAMPLE_PARTITIONS,
            description = "Partitions of the samples and windows topics when they are created (default:"
                    + " ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--rollups", paramLabel = "DURATION", converter = DurationConverter.class, split = ",",
            defaultValue = "10s,60s", description = "Roll-up windows merged from the base windows' histograms,"
                    + " written to the windows topic next to them (default: ${DEFAULT-VALUE}).")
    List<Duration> rollups;

    @Option(names = "--no-rollups", description = "Write base windows only.")
    boolean noRollups;

    @Option(names = "--stall-throughput-fraction", paramLabel = "F", defaultValue = "0.5",
            description = "Throughput stall: window QPS below F x the rolling baseline (default: ${DEFAULT-VALUE}).")
    double stallThroughputFraction;

    @Option(names = "--stall-min-windows", paramLabel = "K", defaultValue = "3",
            description = "Throughput stall: for at least K consecutive windows (default: ${DEFAULT-VALUE}).")
    int stallMinWindows;

    @Option(names = "--stall-latency-multiple", paramLabel = "M", defaultValue = "3",
            description = "Latency stall: window P99 above M x the baseline P99 (default: ${DEFAULT-VALUE}).")
    double stallLatencyMultiple;

    @Option(names = "--stall-latency-windows", paramLabel = "N", defaultValue = "2",
            description = "Latency stall: for at least N consecutive windows (default: ${DEFAULT-VALUE}).")
    int stallLatencyWindows;

    @Option(names = "--stall-baseline-windows", paramLabel = "N", defaultValue = "60",
            description = "Baseline = median of the last N unstalled measured windows (default: ${DEFAULT-VALUE}).")
    int stallBaselineWindows;

    @Option(names = "--commit-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "100ms", description = "Kafka Streams commit interval: under exactly-once also how often"
                    + " results become visible and stage 1 sends its combined partials (default: ${DEFAULT-VALUE}).")
    Duration commitInterval;

    @Option(names = "--stream-threads", paramLabel = "N", defaultValue = "1",
            description = "Kafka Streams threads of this instance; useful up to the samples topic's partitions"
                    + " (default: ${DEFAULT-VALUE}).")
    int streamThreads;

    @Option(names = "--alert-webhook", paramLabel = "URL",
            description = "POST a JSON alert to this URL when a stall starts and ends and when a producer of a running"
                    + " run goes quiet and comes back; retried, never holding up the aggregation (docs/aggregator.md).")
    java.net.URI alertWebhook;

    @Option(names = "--alert-quiet-after", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "10s", description = "With --alert-webhook: a producer without a control event for this"
                    + " long is quiet (its health arrives once a second; default: ${DEFAULT-VALUE}).")
    Duration alertQuietAfter;

    @Option(names = "--http", paramLabel = "HOST:PORT", description = "Serve the live monitor on this address:"
            + " /metrics (Prometheus), /api/runs, /api/windows (JSON) and / (a live page), e.g. 127.0.0.1:9464;"
            + " port 0 picks a free port. Same as --http-bind HOST --http-port PORT.")
    String http;

    @Option(names = "--http-port", paramLabel = "PORT", description = "Serve the live monitor on this port: /metrics"
            + " (Prometheus), /api/runs, /api/windows (JSON) and / (a live page); 0 picks a free port. Off unless"
            + " given.")
    Integer httpPort;

    @Option(names = "--http-bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address the live monitor listens on (default: ${DEFAULT-VALUE}; it has no"
                    + " authentication, so widen it only on a trusted network).")
    String httpBind;

    @Override
    public Integer call() throws Exception {
        if (kafka.bootstrapServers == null) {
            throw new ParameterException(spec.commandLine(), "--bootstrap-servers is required");
        }
        if (alertWebhook != null && !"http".equals(alertWebhook.getScheme())
                && !"https".equals(alertWebhook.getScheme())) {
            throw new ParameterException(spec.commandLine(), "--alert-webhook must be an http:// or https:// URL, was "
                    + alertWebhook);
        }
        AggregatorConfig config;
        try {
            StallConfig stalls = new StallConfig(stallThroughputFraction, stallMinWindows, stallLatencyMultiple,
                    stallLatencyWindows, stallBaselineWindows,
                    Math.min(StallConfig.defaults().minBaselineWindows(), stallBaselineWindows));
            config = AggregatorConfig.defaults().withApplicationId(applicationId).withWindow(window, grace)
                    .withStalls(stalls).withRollups(noRollups ? List.of() : rollups)
                    .withCommitInterval(commitInterval).withStreamThreads(streamThreads)
                    .withStepEndWait(producerTimeout);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        InetSocketAddress httpAddress = HttpOptions.address(spec.commandLine(), http, httpPort, httpBind);
        java.util.Map<String, Object> kafkaConfig;
        try {
            kafkaConfig = kafka.clientConfigObjects();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        TopicProvisioner.ensure(kafka.bootstrapServers, Topics.all(partitions), kafkaConfig);
        java.util.Map<String, String> overrides = new java.util.HashMap<>(KafkaOptions.withStreamsReplication(
                kafka.clientConfig(), TopicProvisioner.replication(kafka.bootstrapServers, kafkaConfig)));
        if (httpAddress != null) {
            // every instance learns the others' monitors through the group's assignment metadata
            overrides.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertised(httpAddress));
        }
        config = config.withClientOverrides(overrides);
        Path dir = stateDir != null ? stateDir : Files.createTempDirectory("tailstream-aggregator-");
        CountDownLatch stopped = new CountDownLatch(1);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        LiveWindows live = new LiveWindows(registry);
        // a restart restores every state store from its changelog before it processes anything: say so as it goes
        AggregatorStatus status = new AggregatorStatus(line -> System.out.println("aggregator: " + line));
        status.bindTo(registry);
        AlertWebhook alerts = alertWebhook == null ? null : new AlertWebhook(alertWebhook, alertQuietAfter);
        List<TopologyListener> listeners = new ArrayList<>();
        if (httpAddress != null) {
            listeners.add(live);
            // before the aggregator starts, so that what it emits next comes after what the page was rebuilt from
            LiveReplay.Result replayed = LiveReplay.replay(kafka.bootstrapServers, kafkaConfig,
                    LiveReplay.DEFAULT_SPAN, window.toMillis(), live, line -> System.out.println("aggregator: live"
                            + " page: " + line));
            System.out.printf(java.util.Locale.ROOT, "aggregator: live page rebuilt from the last %d h of windows,"
                    + " stalls and control events: %,d records (%,d unreadable, skipped) in %.1f s%n",
                    LiveReplay.DEFAULT_SPAN.toHours(), replayed.records(), replayed.skipped(),
                    replayed.took().toMillis() / 1000.0);
        }
        if (alerts != null) {
            alerts.bindTo(registry);
            listeners.add(alerts);
            System.out.println("alerts to " + alertWebhook + " (stalls; producers quiet for "
                    + alertQuietAfter.toSeconds() + " s)");
        }
        // closed after the aggregator: the alerts it queued on its way out are still posted
        CountDownLatch closed = new CountDownLatch(1);
        try (alerts; Aggregator aggregator = Aggregator.start(kafka.bootstrapServers, config, dir,
                listeners.isEmpty() ? TopologyListener.NONE : TopologyListener.all(listeners), status);
             MonitorServer monitor = httpAddress == null ? null
                     : startMonitor(httpAddress, live, aggregator::openWindows, registry,
                             () -> withInstances(status.snapshot(), advertised(httpAddress), aggregator))) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                aggregator.close();
                stopped.countDown();
                // the JVM halts once its hooks return: wait for this command to close the rest (alerts still queued
                // are posted within their drain time)
                try {
                    closed.await(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "tailstream-aggregate-shutdown"));
            if (monitor != null) {
                System.out.println("live monitor on " + monitor.url() + " (metrics on " + monitor.url() + "metrics)");
            }
            awaitRunning(aggregator);
            System.out.println("aggregator running against " + kafka.bootstrapServers + " (application id "
                    + applicationId + "); Ctrl-C to stop");
            while (!stopped.await(1, TimeUnit.SECONDS)) {
                Optional<Throwable> failure = aggregator.failure();
                if (failure.isPresent()) {
                    throw new UserFacingException("the aggregator stopped: " + failure.get().getMessage(),
                            failure.get());
                }
            }
        } finally {
            closed.countDown();
        }
        return 0;
    }

    /**
     * Waits until Kafka Streams runs; restoring state stores may take long after a long run and does not count
     * against the 120 s allowed to start (the status lines show its progress).
     */
    private static void awaitRunning(Aggregator aggregator) throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (!aggregator.awaitRunning(Duration.ofSeconds(1))) {
            if (aggregator.status().phase() == AggregatorStatus.Phase.RESTORING) {
                deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
            } else if (System.nanoTime() - deadline > 0) {
                throw new UserFacingException("the aggregator did not start within " + STARTUP_TIMEOUT.toSeconds()
                        + " s (state " + aggregator.state() + ")");
            }
        }
    }

    /**
     * How other instances and users reach this monitor: the bound address, or this machine's host name when it is
     * bound to every address.
     */
    static String advertised(InetSocketAddress address) {
        String host;
        if (address.getAddress() == null || address.getAddress().isAnyLocalAddress()) {
            try {
                host = InetAddress.getLocalHost().getCanonicalHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        } else {
            host = address.getAddress().getHostAddress();
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    /** The status with {@code self} and {@code instances}: every instance's monitor, for the live page's links. */
    private static java.util.Map<String, Object> withInstances(java.util.Map<String, Object> status, String self,
                                                             Aggregator aggregator) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>(status);
        m.put("self", self);
        java.util.List<String> instances = aggregator.instances();
        m.put("instances", instances.isEmpty() ? java.util.List.of(self) : instances);
        return m;
    }

    private static MonitorServer startMonitor(InetSocketAddress address, LiveWindows live, OpenWindows open,
                                              PrometheusMeterRegistry registry,
                                              java.util.function.Supplier<java.util.Map<String, Object>> status) {
        try {
            return MonitorServer.start(address, live, open, registry, status);
        } catch (UncheckedIOException e) {
            throw new UserFacingException("--http-port/--http-bind: " + e.getMessage(), e);
        }
    }
}
