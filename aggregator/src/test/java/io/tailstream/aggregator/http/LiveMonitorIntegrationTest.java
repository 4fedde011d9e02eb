package io.tailstream.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live monitor of an aggregator running against the real in-process broker: five windows of known samples are
 * pre-filled, and the HTTP endpoints must show exactly their counts and figures.
 */
class LiveMonitorIntegrationTest {

    private static final List<String> OPS = List.of("point_select", "read_write");
    private static final int[] QUERIES = {1, 20};
    private static final int WINDOWS = 5;

    @TempDir
    Path stateDir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void runningAggregator_servesExactWindowsMetricsAndPage_onLoopbackOnly() throws Exception {
        String run = "it-http";
        long baseMs = (System.currentTimeMillis() / 1000 - 60) * 1000;
        // by window start: {count, statements of successful samples, errors, count of op 0, its successful statements}
        Map<Long, long[]> expected = new TreeMap<>();
        long total = 0;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            TestProducer p = new TestProducer(run, "p1");
            try (KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(kafka.bootstrapServers())) {
                for (int w = 0; w < WINDOWS; w++) {
                    long windowStartMs = baseMs + w * 1000L;
                    int n = 100 * (w + 1);
                    long[] figures = new long[5];
                    List<Sample> batch = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        int op = i % 2;
                        long latency = 500 + 10L * i;
                        long end = windowStartMs * 1000 + 1000 + i * (900_000L / n);
                        SampleStatus status = i % 10 == 3 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                        batch.add(new Sample(end - latency, latency, end - latency, op, status, QUERIES[op], false));
                        figures[0]++;
                        boolean ok = status == SampleStatus.OK;
                        figures[1] += Sample.succeededStatements(ok, QUERIES[op]);
                        figures[2] += ok ? 0 : 1;
                        if (op == 0) {
                            figures[3]++;
                            figures[4] += Sample.succeededStatements(ok, QUERIES[op]);
                        }
                    }
                    expected.put(windowStartMs, figures);
                    total += n;
                    producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(),
                            p.samples(1, OPS, batch, (windowStartMs + 1000) * 1000)));
                }
                // the marker in the last window with samples, so that window is the latest one
                producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(),
                        p.endOfStep(1, OPS, (baseMs + WINDOWS * 1000L) * 1000 - 1))).get();
            }

            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            LiveWindows live = new LiveWindows(registry);
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-http-aggregator");
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, stateDir, live);
                 MonitorServer server = MonitorServer.start(new InetSocketAddress("127.0.0.1", 0), live,
                         aggregator::openWindows, registry);
                 AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
                assertThat(aggregator.awaitRunning(Duration.ofSeconds(30))).isTrue();
                progress.awaitCounts(run, Map.of(1, total), Duration.ofSeconds(60));
                String base = server.url();

                // /api/windows: every window with its exact count, newest first
                HttpResponse<String> windows = get(base + "api/windows?run=" + run + "&step=1&limit=120");
                assertThat(windows.statusCode()).isEqualTo(200);
                assertThat(windows.headers().firstValue("Content-Type")).hasValue("application/json");
                JsonNode body = Json.MAPPER.readTree(windows.body());
                assertThat(body.get("op").asText()).isEqualTo("*");
                List<Long> starts = new ArrayList<>();
                Map<Long, Long> counts = new TreeMap<>();
                for (JsonNode w : body.get("windows")) {
                    long start = w.get("windowStartEpochMs").asLong();
                    starts.add(start);
                    counts.put(start, w.get("count").asLong());
                    long[] figures = expected.getOrDefault(start, new long[5]);
                    assertThat(w.get("qps").asDouble()).as("qps @" + start).isEqualTo((double) figures[1]);
                    assertThat(w.get("errors").asLong()).as("errors @" + start).isEqualTo(figures[2]);
                    assertThat(w.get("tps").asDouble()).isEqualTo((double) (figures[0] - figures[2]));
                    assertThat(w.get("errorsPerSecond").asDouble()).isEqualTo((double) figures[2]);
                }
                List<Long> newestFirst = new ArrayList<>(starts);
                newestFirst.sort(Collections.reverseOrder());
                assertThat(starts).isEqualTo(newestFirst);
                for (Map.Entry<Long, long[]> e : expected.entrySet()) {
                    assertThat(counts.get(e.getKey())).as("count @" + e.getKey()).isEqualTo(e.getValue()[0]);
                }
                // windows beyond the ones with samples (a step edge) are empty
                counts.keySet().stream().filter(s -> !expected.containsKey(s))
                        .forEach(s -> assertThat(counts.get(s)).as("edge window @" + s).isZero());
                JsonNode limited = Json.MAPPER.readTree(
                        get(base + "api/windows?run=" + run + "&step=1&limit=2").body()).get("windows");
                assertThat(limited).hasSize(2);
                assertThat(limited.get(0).get("windowStartEpochMs").asLong()).isEqualTo(starts.get(0));
                JsonNode op0 = Json.MAPPER.readTree(
                        get(base + "api/windows?run=" + run + "&step=1&op=point_select").body()).get("windows");
                assertThat(op0).isNotEmpty();
                for (JsonNode w : op0) {
                    long[] figures = expected.getOrDefault(w.get("windowStartEpochMs").asLong(), new long[5]);
                    assertThat(w.get("count").asLong()).isEqualTo(figures[3]);
                }

                // /metrics: the latest window's exact figures, errors of all windows, no open stall
                long latestStart = starts.get(0);
                assertThat(latestStart).isEqualTo(baseMs + (WINDOWS - 1) * 1000L);
                long[] latest = expected.get(latestStart);
                // 500 samples, half of each op; every tenth (all of them the second op's) failed after 19 of its 20
                // statements succeeded: they count, the failing one does not (sysbench's rule)
                assertThat(latest[1]).isEqualTo(250 * 1 + (250 - 50) * 20 + 50 * 19);
                JsonNode latestWindow = body.get("windows").get(0);
                HttpResponse<String> metrics = get(base + "metrics");
                assertThat(metrics.statusCode()).isEqualTo(200);
                assertThat(metrics.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
                String text = metrics.body();
                String all = "op=\"*\",run=\"" + run + "\",step=\"1\"";
                assertThat(metric(text, "tailstream_window_qps", all)).isEqualTo((double) latest[1]);
                assertThat(metric(text, "tailstream_window_tps", all)).isEqualTo((double) (latest[0] - latest[2]));
                assertThat(metric(text, "tailstream_window_count", all)).isEqualTo((double) latest[0]);
                assertThat(metric(text, "tailstream_window_errors_per_second", all)).isEqualTo((double) latest[2]);
                assertThat(metric(text, "tailstream_window_p95_seconds", all))
                        .isEqualTo(latestWindow.get("p95Micros").asLong() / 1e6);
                assertThat(metric(text, "tailstream_window_p99_seconds", all))
                        .isEqualTo(latestWindow.get("p99Micros").asLong() / 1e6);
                long errors = expected.values().stream().mapToLong(f -> f[2]).sum();
                assertThat(metric(text, "tailstream_window_errors_total", all)).isEqualTo((double) errors);
                assertThat(metric(text, "tailstream_stalls_open", all)).isEqualTo(0.0);
                assertThat(metric(text, "tailstream_window_qps", "op=\"point_select\",run=\"" + run + "\",step=\"1\""))
                        .isEqualTo((double) latest[4]);

                // /api/runs: the step with its latest figures
                JsonNode runs = Json.MAPPER.readTree(get(base + "api/runs").body()).get("runs");
                assertThat(runs).hasSize(1);
                assertThat(runs.get(0).get("run").asText()).isEqualTo(run);
                JsonNode step = runs.get(0).get("steps").get(0);
                assertThat(step.get("step").asInt()).isEqualTo(1);
                assertThat(step.get("latest").get("*").get("windowStartEpochMs").asLong()).isEqualTo(latestStart);
                assertThat(step.get("errorsTotal").get("*").asLong()).isEqualTo(errors);
                assertThat(step.get("openStalls")).isEmpty();

                // the page, self-contained
                HttpResponse<String> page = get(base);
                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
                assertThat(page.body()).contains("<html", "api/runs", "api/windows")
                        .doesNotContain("https://", "http://");

                // read-only, exact paths, clear errors
                assertThat(get(base + "nope").statusCode()).isEqualTo(404);
                assertThat(get(base + "metrics/x").statusCode()).isEqualTo(404);
                HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + "metrics"))
                        .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(post.statusCode()).isEqualTo(405);
                assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
                HttpResponse<String> noRun = get(base + "api/windows?step=1");
                assertThat(noRun.statusCode()).isEqualTo(400);
                assertThat(noRun.body()).contains("'run' is required");
                HttpResponse<String> badLimit = get(base + "api/windows?run=" + run + "&step=1&limit=x");
                assertThat(badLimit.statusCode()).isEqualTo(400);
                assertThat(badLimit.body()).contains("'limit' must be an integer, got 'x'");
                assertThat(Json.MAPPER.readTree(get(base + "api/windows?run=other&step=1").body()).get("windows"))
                        .isEmpty();
                assertThat(aggregator.failure()).isEmpty();

                // open windows, read by interactive queries: a second run whose last windows stream time has not
                // closed (no later data, no end of step) shows them under "open" with their exact counts
                String openRun = "it-http-open";
                long openBaseMs = (System.currentTimeMillis() / 1000 - 4) * 1000;
                Map<Long, Long> sentOpen = new TreeMap<>();
                TestProducer q = new TestProducer(openRun, "p1");
                try (KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(kafka.bootstrapServers())) {
                    for (int w = 0; w < 3; w++) {
                        long windowStartMs = openBaseMs + w * 1000L;
                        int n = 10 + w;
                        List<Sample> batch = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            long end = windowStartMs * 1000 + 100_000 + i * 1000L;
                            batch.add(new Sample(end - 700, 700, end - 700, 0, SampleStatus.OK, 1, false));
                        }
                        sentOpen.put(windowStartMs, (long) n);
                        producer.send(new ProducerRecord<>(Topics.SAMPLES, q.key(),
                                q.samples(1, OPS, batch, (windowStartMs + 1000) * 1000)));
                    }
                    producer.flush();
                }
                Map<Long, Long> open = new TreeMap<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (!open.equals(sentOpen) && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    JsonNode openBody = Json.MAPPER.readTree(get(base + "api/windows?run=" + openRun + "&step=1")
                            .body());
                    open.clear();
                    if (openBody.get("open").isArray()) {
                        for (JsonNode w : openBody.get("open")) {
                            open.put(w.get("windowStartEpochMs").asLong(), w.get("count").asLong());
                        }
                    }
                    assertThat(openBody.get("windows")).as("nothing of the open run is closed").isEmpty();
                }
                assertThat(open).isEqualTo(sentOpen);

                // loopback only: not reachable on the machine's other addresses
                assertThat(server.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
                Optional<InetAddress> external = nonLoopbackAddress();
                assumeThat(external).as("a non-loopback IPv4 address on this machine").isPresent();
                assertThatThrownBy(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(external.get(), server.address().getPort()), 2000);
                    }
                }).isInstanceOf(ConnectException.class);
            }
        }
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The value of the one sample of {@code name} with exactly {@code labels} in Prometheus text. */
    private static double metric(String text, String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$").matcher(text);
        assertThat(m.find()).as(name + "{" + labels + "} in\n" + text).isTrue();
        double value = Double.parseDouble(m.group(1));
        assertThat(m.find()).as("one sample of " + name + "{" + labels + "}").isFalse();
        return value;
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
