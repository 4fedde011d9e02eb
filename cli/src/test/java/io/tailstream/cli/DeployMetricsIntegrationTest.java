package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the alert rules ({@code infra/deploy/prometheus/alerts.yml}) and the Grafana dashboard
 * ({@code infra/deploy/grafana/tailstream-dashboard.json}) read exists on a live endpoint: a real broker, the
 * aggregator ({@code aggregate --http-port 0}), a producer ({@code run --http-port 0}) with traffic, the archiver
 * ({@code archive --http-port 0}) and one unreadable record (so the dead-letter counter exists). Names are taken from
 * the PromQL expressions by {@link PromQlNames}; a metric renamed in the code or in those files fails here.
 */
class DeployMetricsIntegrationTest {

    /** Series Prometheus makes itself, never on an endpoint. */
    static final Set<String> PROMETHEUS_OWN = Set.of("up");

    @TempDir
    Path dir;

    @Test
    void everyMetricOfTheAlertsAndTheDashboard_isServed() throws Exception {
        Set<String> referenced = DeployFiles.referencedMetrics();
        assertThat(referenced).as("the parser finds the files' metrics").contains("tailstream_window_p99_seconds",
                "tailstream_archiver_lag_seconds", "tailstream_producer_spool_bytes", "tailstream_deadletters_total");
        Set<String> served = new TreeSet<>(PROMETHEUS_OWN);
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             PrometheusScrape.Stdout out = new PrometheusScrape.Stdout()) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(2));
            Thread aggregate = new Thread(() -> Cli.commandLine().execute("aggregate", "--bootstrap-servers",
                    bootstrap, "--state-dir", dir.resolve("state").toString(), "--http-port", "0"), "aggregate-it");
            Thread archive = new Thread(() -> Cli.commandLine().execute("archive", "--bootstrap-servers", bootstrap,
                    "--archive", dir.resolve("archive").toString(), "--http-port", "0"), "archive-it");
            aggregate.start();
            archive.start();
            try {
                String aggregatorUrl = await(() -> out.urlAfter("(metrics on "), 120).replaceAll("\\)$", "");
                String archiverUrl = await(() -> out.urlAfter("archiver metrics on "), 60);
                await(() -> out.text().contains("aggregator running against") ? "" : null, 120);

                // a producer's endpoint lives while its run does: scraped as soon as it is printed, 20 s before
                // the run can end (its names are registered when it starts)
                CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Cli.commandLine().execute("run",
                        "--bootstrap-servers", bootstrap, "--workload", "oltp_point_select", "--threads", "1",
                        "--warmup", "0s", "--duration", "20s", "--run-id", "deploy-metrics-1", "--spool-dir",
                        dir.resolve("spool").toString(), "--http-port", "0"));
                String producerUrl = await(() -> out.urlAfter("producer metrics on "), 60);
                assertThat(run).as("the run is still going").isNotDone();
                served.addAll(PrometheusScrape.of(producerUrl).names);

                sendUnreadableBlock(bootstrap);
                // windows, a step's stall gauge and the dead-letter counter exist once the aggregator saw them, and a
                // scope's meters are registered one after the other: scrape until every name is served or 120 s
                // have passed (then the assertion below names what is missing)
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                do {
                    served.addAll(PrometheusScrape.of(aggregatorUrl).names);
                    served.addAll(PrometheusScrape.of(archiverUrl).names);
                } while (!served.containsAll(referenced) && System.nanoTime() < deadline && pause());
                assertThat(run.get(180, TimeUnit.SECONDS)).isZero();
            } finally {
                // both run until Ctrl-C; in-process, an interrupt ends them
                aggregate.interrupt();
                archive.interrupt();
                aggregate.join(TimeUnit.SECONDS.toMillis(60));
                archive.join(TimeUnit.SECONDS.toMillis(60));
            }
        }
        Set<String> missing = new TreeSet<>(referenced);
        missing.removeAll(served);
        assertThat(missing).as("metrics the alerts or the dashboard read that no endpoint serves; served: " + served)
                .isEmpty();
    }

    /** Bytes that are no sample block, keyed like a producer's: the aggregator sends them to the dead letters. */
    private static void sendUnreadableBlock(String bootstrap) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.SAMPLES, "deploy-metrics-1/noise",
                    "not a sample block".getBytes(StandardCharsets.UTF_8))).get(60, TimeUnit.SECONDS);
        }
    }

    /** Waits 200 ms between scrapes; true, to go on. */
    private static boolean pause() throws InterruptedException {
        Thread.sleep(200);
        return true;
    }

    private static <T> T await(PrometheusScrape.Probe<T> probe, int seconds) throws Exception {
        return PrometheusScrape.await(probe, seconds, () -> false);
    }
}
