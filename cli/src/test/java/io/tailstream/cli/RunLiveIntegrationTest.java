package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} with {@code live: true} against the local MariaDB: the aggregator runs beside the load in a JVM of its
 * own, serves its live page and {@code /metrics} and posts to the plan's alert webhook when a stall starts and ends;
 * a global read lock held for 5 s in the step's middle is that stall. The run's figures are the same pipeline's:
 * every sample sent is aggregated and archived, and the archive holds the stall.
 *
 * <p>The live aggregator takes only the CPU the load leaves, so nothing here asks <em>when</em> during the load it
 * saw what (the alert's delay is measured in {@code MariaDbStallIntegrationTest} and the soak in the docs): the
 * run waits for it to count every sample, after which it has published the stall and its alerts.
 */
class RunLiveIntegrationTest {

    private static final Pattern PAGE = Pattern.compile("live page: (http://\\S+/) ");

    @TempDir
    Path dir;

    @Test
    void liveRun_servesThePage_alertsTheStall_andCountsEverySample() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        List<JsonNode> alerts = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/alerts", ex -> {
            alerts.add(Json.MAPPER.readTree(ex.getRequestBody().readAllBytes()));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        Path plan = dir.resolve("live.yaml");
        // one worker: with two, FLUSH TABLES WITH READ LOCK can wait for a row-lock cycle it is part of
        Files.writeString(plan, """
                name: live
                targets:
                  - name: mariadb
                    url: "%s"
                    user: %s
                    passwordEnv: %s
                workloads:
                  - name: oltp_write_only
                    options: {tables: 1, table_size: 2000}
                threads: [1]
                warmup: 2s
                duration: 30s
                reportInterval: 1
                prepare: true
                live: true
                alertWebhook: http://127.0.0.1:%d/alerts
                """.formatted(server.url(), server.user(), PasswordEnvTarget.PASSWORD_ENV,
                receiver.getAddress().getPort()));
        String runId = "live-1";
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        AtomicReference<String> pageSeen = new AtomicReference<>();
        AtomicReference<String> metricsSeen = new AtomicReference<>();
        AtomicReference<JsonNode> stallSeen = new AtomicReference<>();
        long lockFrom;
        long lockTo;
        try (BackgroundRun run = BackgroundRun.start(plan, dir.resolve("out"), runId)) {
            run.await(() -> PAGE.matcher(run.console()).find(), "the live page's address");
            Matcher m = PAGE.matcher(run.console());
            assertThat(m.find()).isTrue();
            URI page = URI.create(m.group(1));
            // the page, its metrics and its runs, as a browser would poll them while the run goes on
            Thread poller = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        pageSeen.compareAndSet(null, get(http, page));
                        metricsSeen.compareAndSet(null, get(http, page.resolve("/metrics")));
                        JsonNode runs = Json.MAPPER.readTree(get(http, page.resolve("/api/runs")));
                        for (JsonNode r : runs.path("runs")) {
                            for (JsonNode step : r.path("steps")) {
                                if (r.path("run").asText().equals(runId) && (step.path("openStalls").size()
                                        + step.path("endedStalls").size() > 0)) {
                                    stallSeen.compareAndSet(null, step);
                                }
                            }
                        }
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        // the aggregator starts, lags behind the load or has stopped: ask again
                    }
                }
            }, "live-page-poller");
            poller.setDaemon(true);
            poller.start();
            run.awaitTransactions(1);
            Thread.sleep(8_000); // a known schedule: past the stall rules' baseline, inside the measurement
            try (Connection c = DriverManager.getConnection(server.url(), server.user(), server.password());
                 Statement st = c.createStatement()) {
                st.setQueryTimeout(10);
                st.execute("FLUSH TABLES WITH READ LOCK");
                lockFrom = System.currentTimeMillis();
                Thread.sleep(5_000);
                lockTo = System.currentTimeMillis();
                st.execute("UNLOCK TABLES");
            }
            int exit = run.finish(600);
            poller.interrupt();
            String console = run.text();
            assertThat(exit).as(console).isZero();
            assertThat(console).contains("waiting for the live aggregator to count the run's")
                    .doesNotContain("the live aggregator stopped");
            Matcher counts = Pattern.compile("samples: ([\\d,]+) sent = ([\\d,]+) aggregated = ([\\d,]+) archived")
                    .matcher(console);
            assertThat(counts.find()).as(console).isTrue();
            assertThat(counts.group(2)).isEqualTo(counts.group(1));
            assertThat(counts.group(3)).isEqualTo(counts.group(1));
            assertThat(Files.readString(dir.resolve("out").resolve("live-aggregator.log")))
                    .contains("live monitor on " + page);
        } finally {
            receiver.stop(0);
        }

        assertThat(pageSeen.get()).contains("<html");
        assertThat(metricsSeen.get()).contains("tailstream_");
        assertThat(stallSeen.get()).as("a stall on the live page while the run went on").isNotNull();
        // the hard stall over the lock, alerted as it started and as it ended
        List<JsonNode> ofLock = alerts.stream().filter(a -> a.path("kind").asText().equals("hard")
                && a.path("startEpochMs").asLong() < lockTo && a.path("startEpochMs").asLong() >= lockFrom - 1_000)
                .toList();
        assertThat(ofLock).as("alerts %s, lock %d..%d", alerts, lockFrom, lockTo)
                .extracting(a -> a.get("type").asText()).containsExactly("stall_started", "stall_ended");
        try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("out").resolve("archive"));
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM stalls WHERE kind = 'hard' AND start_ms = "
                     + ofLock.get(0).get("startEpochMs").asLong() + " AND end_ms = "
                     + ofLock.get(1).get("endEpochMs").asLong())) {
            rs.next();
            assertThat(rs.getLong(1)).as("the alerted stall in the archive").isPositive();
        }
    }

    @Test
    void liveAggregatorKilled_theRunAggregatesTheRest_andCountsEverySampleOnce() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        Path plan = dir.resolve("killed.yaml");
        Files.writeString(plan, """
                name: killed
                targets:
                  - name: mariadb
                    url: "%s"
                    user: %s
                    passwordEnv: %s
                workloads:
                  - name: oltp_point_select
                    options: {tables: 1, table_size: 1000}
                threads: [2]
                rate: 2000
                warmup: 1s
                duration: 20s
                reportInterval: 1
                prepare: true
                live: true
                """.formatted(server.url(), server.user(), PasswordEnvTarget.PASSWORD_ENV));
        String runId = "live-killed-1";
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try (BackgroundRun run = BackgroundRun.start(plan, dir.resolve("out"), runId)) {
            run.await(() -> PAGE.matcher(run.console()).find(), "the live page's address");
            Matcher m = PAGE.matcher(run.console());
            assertThat(m.find()).isTrue();
            URI page = URI.create(m.group(1));
            run.awaitTransactions(2);
            // it has committed windows of the run: what it counted must not be counted again after it dies
            run.await(() -> {
                try {
                    return get(http, page.resolve("/api/runs")).contains("\"" + runId + "\"");
                } catch (Exception e) {
                    return false;
                }
            }, "the run on the live page");
            ProcessHandle child = ProcessHandle.current().descendants()
                    .filter(p -> commandLine(p).contains("aggregate")).findFirst()
                    .orElseThrow(() -> new AssertionError("no aggregate process among "
                            + ProcessHandle.current().descendants().map(p -> p.pid() + " " + commandLine(p))
                            .toList()));
            // as a crash would: no last commit; what it processed since its last one is processed again
            assertThat(child.destroyForcibly()).isTrue();
            child.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);

            int exit = run.finish(600);
            String console = run.text();
            assertThat(exit).as(console).isZero();
            assertThat(console).contains("the live aggregator stopped (see " + dir.resolve("out")
                    .resolve("live-aggregator.log") + "); aggregating here from what it committed");
            Matcher counts = Pattern.compile("samples: ([\\d,]+) sent = ([\\d,]+) aggregated = ([\\d,]+) archived")
                    .matcher(console);
            assertThat(counts.find()).as(console).isTrue();
            assertThat(counts.group(2)).isEqualTo(counts.group(1));
            assertThat(counts.group(3)).isEqualTo(counts.group(1));
            assertThat(console).doesNotContain("did not publish");
        }
        try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("out").resolve("archive"));
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM summaries WHERE run_id = '" + runId + "'")) {
            rs.next();
            assertThat(rs.getLong(1)).as("the step's summaries, from the aggregator that took over").isPositive();
        }
    }

    /** The process's arguments, program first; empty once it has gone. */
    private static List<String> commandLine(ProcessHandle process) {
        try {
            String raw = Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return List.of(raw.split("\0"));
        } catch (java.io.IOException e) {
            return List.of();
        }
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + r.statusCode());
        }
        return r.body();
    }
}
