package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archiver's and the producer's own {@code /metrics} ({@code archive --http-port}, {@code run --http-port}), run
 * as users run them, against a real broker: the archiver's counters reach what the run sent and its lag falls to 0;
 * a producer that starts while the broker is away shows its spool filling on its endpoint, where Kafka cannot carry
 * it.
 */
class MetricsEndpointsIntegrationTest {

    private static final String SAMPLES_LAG = "tailstream_archiver_lag_records{topic=\"tailstream.samples\"}";
    private static final String CONTROL_LAG = "tailstream_archiver_lag_records{topic=\"tailstream.control\"}";

    @TempDir
    Path dir;

    @Test
    void archive_metricsFollowTheTopicsToTheEnd() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(2));
            long sent;
            try (PrometheusScrape.Stdout out = new PrometheusScrape.Stdout()) {
                assertThat(Cli.commandLine().execute("run", "--bootstrap-servers", bootstrap, "--workload",
                        "oltp_point_select", "--threads", "1", "--warmup", "0s", "--duration", "2s", "--run-id",
                        "metrics-1", "--json")).isZero();
                sent = samplesSent(out.text());
            }
            assertThat(sent).isPositive();
            AtomicInteger exit = new AtomicInteger(-1);
            try (PrometheusScrape.Stdout out = new PrometheusScrape.Stdout()) {
                Thread archive = new Thread(() -> exit.set(Cli.commandLine().execute("archive", "--bootstrap-servers",
                        bootstrap, "--archive", dir.resolve("archive").toString(), "--roll-interval", "1s",
                        "--http-port", "0")), "archive-under-test");
                archive.start();
                try {
                    String url = await(() -> out.urlAfter("archiver metrics on "), archive, 60);
                    // every meter of a scrape reads the archiver's status of that moment, and the status is
                    // republished every second: wait for one scrape in which all of them show the end reached
                    PrometheusScrape last = await(() -> {
                        PrometheusScrape s = PrometheusScrape.of(url);
                        return s.value("tailstream_archiver_samples_total") == sent && s.value(SAMPLES_LAG) == 0
                                && s.value(CONTROL_LAG) == 0
                                && s.value("tailstream_archiver_lag_samples") == 0
                                && s.value("tailstream_archiver_lag_seconds") == 0
                                && s.value("tailstream_archiver_files_published_total") > 0 ? s : null;
                    }, archive, 120);
                    assertThat(last.value("tailstream_archiver_blocks_total")).isPositive();
                    assertThat(last.value("tailstream_archiver_records_total"))
                            .isGreaterThanOrEqualTo(last.value("tailstream_archiver_blocks_total"));
                    assertThat(last.value("tailstream_archiver_corrupt_records_total")).isZero();
                } finally {
                    // the command runs until Ctrl-C; in-process, an interrupt ends its consumer's poll
                    archive.interrupt();
                    archive.join(TimeUnit.SECONDS.toMillis(60));
                }
                assertThat(archive.isAlive()).as("archive stopped").isFalse();
            }
        }
    }

    @Test
    void run_spoolFillingDuringABrokerOutage_isOnTheProducersMetrics() throws Exception {
        int[] ports = freePorts();
        String bootstrap = "127.0.0.1:" + ports[0];
        EmbeddedKafka kafka = null;
        try (PrometheusScrape.Stdout out = new PrometheusScrape.Stdout()) {
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Cli.commandLine().execute("run",
                    "--bootstrap-servers", bootstrap, "--workload", "oltp_point_select", "--threads", "1",
                    "--warmup", "0s", "--duration", "20s", "--run-id", "metrics-away-1", "--spool-dir",
                    dir.resolve("spool").toString(), "--http-port", "0"));
            String url = await(() -> out.urlAfter("producer metrics on "), run, 60);
            PrometheusScrape outage = await(() -> {
                PrometheusScrape s = PrometheusScrape.of(url);
                return s.value("tailstream_producer_spool_bytes") > 64 * 1024 ? s : null;
            }, run, 90);
            assertThat(outage.value("tailstream_producer_spooling")).isEqualTo(1);
            assertThat(outage.value("tailstream_producer_spool_blocks")).isPositive();
            assertThat(outage.value("tailstream_producer_spooled_blocks_total")).isPositive();
            assertThat(outage.value("tailstream_producer_blocks_sent_total")).isPositive();
            assertThat(outage.value("tailstream_producer_samples_sent_total")).isZero();
            assertThat(outage.value("tailstream_producer_spool_limit_bytes")).isEqualTo(1L << 30);
            kafka = EmbeddedKafka.start(dir.resolve("kafka"), true, ports[0], ports[1]);
            assertThat(run.get(180, TimeUnit.SECONDS)).as(out.text()).isZero();
        } finally {
            if (kafka != null) {
                kafka.close();
            }
        }
    }

    /** {@link PrometheusScrape#await}, failing as soon as {@code command} (a thread or a future) ended. */
    private static <T> T await(PrometheusScrape.Probe<T> probe, Object command, int seconds) throws Exception {
        return PrometheusScrape.await(probe, seconds,
                () -> command instanceof Thread t ? !t.isAlive() : ((CompletableFuture<?>) command).isDone());
    }

    private static long samplesSent(String json) {
        String doc = json.substring(json.indexOf("{\"steps\""));
        JsonNode node = Json.read(doc.substring(0, doc.indexOf('\n') < 0 ? doc.length() : doc.indexOf('\n')).trim(),
                JsonNode.class);
        long total = 0;
        for (JsonNode step : node.get("steps")) {
            total += step.get("samplesSent").asLong();
        }
        return total;
    }

    /** Two distinct free ports, taken while both sockets are open. */
    private static int[] freePorts() throws IOException {
        try (ServerSocket a = new ServerSocket(); ServerSocket b = new ServerSocket()) {
            a.bind(new InetSocketAddress("127.0.0.1", 0));
            b.bind(new InetSocketAddress("127.0.0.1", 0));
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        }
    }
}
