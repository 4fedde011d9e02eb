package io.tailstream.cli.command;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.http.MetricsServer;
import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.metrics.ArchiverMetrics;
import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.HttpOptions;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.Archiver;
import io.tailstream.reporter.archive.ArchiverConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Writes the topics to the Parquet archive. */
@Command(name = "archive", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Archive samples, windows and control events to Parquet (hive-partitioned by run).",
                "Runs until interrupted, rolling files every --roll-interval; --until-caught-up stops at the end"
                        + " offsets seen at start."})
public final class ArchiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--archive", paramLabel = "DIR", required = true, description = "Archive folder.")
    Path archive;

    @Option(names = "--until-caught-up", description = "Stop once everything present at start is archived.")
    boolean untilCaughtUp;

    @Option(names = "--roll-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "60s", description = "Close and publish files at least this often (default:"
            + " ${DEFAULT-VALUE}).")
    Duration rollInterval;

    @Option(names = "--row-group-rows", paramLabel = "N", defaultValue = "" + ArchiverConfig.DEFAULT_ROW_GROUP_ROWS,
            description = "Samples sorted and written per Parquet row group, from 1 to 16777216. This bounds the"
                    + " archiver's memory: about 64 bytes per row for each samples partition it archives, so about"
                    + " 64 MB per partition at the default. Smaller row groups save memory but make the files"
                    + " larger, since each row group repeats its dictionaries (default: ${DEFAULT-VALUE}).")
    int rowGroupRows;

    @Option(names = "--group-id", paramLabel = "ID", defaultValue = ArchiverConfig.DEFAULT_GROUP_ID,
            description = "Consumer group; offsets are committed only after files are in place. Archivers with"
                    + " the same group and archive folder share the partitions (default: ${DEFAULT-VALUE}).")
    String groupId;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "20s", description = "How long to wait for the Kafka cluster at start before failing"
            + " (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Mixin
    HttpOptions http = new HttpOptions();

    @Override
    public Integer call() {
        if (kafka.bootstrapServers == null) {
            throw new ParameterException(spec.commandLine(), "--bootstrap-servers is required");
        }
        if (rowGroupRows < 1 || rowGroupRows > ArchiverConfig.MAX_ROW_GROUP_ROWS) {
            throw new ParameterException(spec.commandLine(), "--row-group-rows must be in 1.."
                    + ArchiverConfig.MAX_ROW_GROUP_ROWS + ", got " + rowGroupRows);
        }
        InetSocketAddress metricsAddress = http.address(spec.commandLine());
        ArchiverConfig config;
        try {
            config = ArchiverConfig.of(kafka.bootstrapServers, archive).withRollInterval(rollInterval)
                    .withRowGroupRows(rowGroupRows).withGroupId(groupId).withKafkaProperties(kafka.clientConfig());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        awaitCluster(kafka.bootstrapServers, kafka.clientConfig(), connectTimeout);
        ArchiveSummary summary;
        // every few seconds: done/total, rate and ETA while catching up; the lag while archiving continuously
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Archiver archiver = new Archiver(config, progress -> System.out.println(progress.line()));
             MetricsServer metrics = metricsAddress == null ? null
                     : HttpOptions.serve(metricsAddress, registry)) {
            if (metrics != null) {
                ArchiverMetrics.bind(registry, archiver);
                System.out.println("archiver metrics on " + metrics.url());
            }
            if (untilCaughtUp) {
                summary = archiver.runUntilCaughtUp();
            } else {
                Runtime.getRuntime().addShutdownHook(new Thread(archiver::close, "tailstream-archive-shutdown"));
                System.out.println("archiving " + kafka.bootstrapServers + " to " + archive + "; Ctrl-C to stop");
                summary = archiver.runUntilClosed();
            }
        }
        System.out.printf("archived %,d samples in %,d blocks to %s (%d files; rows %s)%n", summary.samplesSeen(),
                summary.blocksSeen(), archive, summary.filesWritten(), summary.rowsByDataset());
        if (summary.corruptRecords() > 0) {
            System.out.printf("%,d corrupt records were not archived%n", summary.corruptRecords());
        }
        return 0;
    }

    /**
     * Fails with one line naming the bootstrap address unless the cluster answers a describe-cluster request within
     * {@code timeout}: without it the consumer would wait a minute per call (its default API timeout) and fail
     * without saying where it looked. Asks with the command's client settings ({@code --kafka-config}: a secured
     * cluster answers nothing else), and says so when the cluster answers but refuses them.
     */
    static void awaitCluster(String bootstrapServers, Map<String, String> clientConfig, Duration timeout) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new UserFacingException("--connect-timeout must be > 0, was " + timeout);
        }
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Properties p = new Properties();
        p.putAll(clientConfig);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "tailstream-archive-check");
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).nodes().get(ms + 5_000L,
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserFacingException("interrupted while waiting for Kafka at " + bootstrapServers, e);
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof AuthenticationException || cause instanceof AuthorizationException) {
                throw new UserFacingException("Kafka at " + bootstrapServers + " refused this client: "
                        + cause.getMessage() + " (check the credentials in --kafka-config)", cause);
            }
            throw new UserFacingException("cannot reach Kafka at " + bootstrapServers + ": no answer to a"
                    + " describe-cluster request within " + (ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms") + " ("
                    + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": "
                    + cause.getMessage()) + "); is the broker running and --bootstrap-servers right?", cause);
        }
    }
}
