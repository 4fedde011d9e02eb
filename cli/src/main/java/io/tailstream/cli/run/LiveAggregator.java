package io.tailstream.cli.run;

import io.tailstream.cli.Main;
import io.tailstream.cli.UserFacingException;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.infra.process.LowestPriority;
import io.tailstream.producer.plan.LiveView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The aggregator of a live local run ({@code run --live}): a {@code tailstream aggregate} in a JVM of its own, at the
 * lowest CPU priority ({@link LowestPriority}: {@code SCHED_IDLE} threads in a nice-19 session group), started before
 * the load and stopped after the run is archived. It serves the live page and {@code /metrics}, and posts alerts when
 * asked to; its console goes to {@code live-aggregator.log} in the run's folder.
 *
 * <p>At the lowest priority it takes only the CPU the database and the load generator leave; when they leave none for
 * a while, its windows close late and the page lags, and it catches up once the load ends, back at normal priority
 * where the system allows raising it. The figures do not depend on it: the archive and report are made from Kafka
 * after the run, as without {@code --live}.
 */
final class LiveAggregator implements AutoCloseable {

    /** Where the live page listens unless told: this machine only, on a free port. */
    static final String DEFAULT_HTTP = "127.0.0.1:0";
    /** How long the aggregator may take to start (JVM, Kafka Streams joining its group) before the run gives up. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** How long it may take to stop (a last commit, closing Kafka Streams) before it is killed. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /**
     * Its JVM: a heap for hours of windows (its stores hold open windows and per-step state only), the serial
     * collector, and the quick JIT compiler only, whose compilations cost the machine less while the load runs.
     */
    static final List<String> JVM_OPTIONS = List.of("-Xms128m", "-Xmx1g", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1");

    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([a-z_]+)\"");

    private final Process process;
    private final URI page;
    private final Path log;
    private final Path stateDir;

    private LiveAggregator(Process process, URI page, Path log, Path stateDir) {
        this.process = process;
        this.page = page;
        this.log = log;
        this.stateDir = stateDir;
    }

    /**
     * Starts the aggregator against {@code bootstrapServers} and waits until it runs.
     *
     * @throws UserFacingException if it exits or does not run within {@link #START_TIMEOUT} (its log is named)
     */
    static LiveAggregator start(String bootstrapServers, LiveView view, Path outDir) {
        InetSocketAddress address = resolve(view.http() != null ? view.http() : DEFAULT_HTTP);
        List<String> args = new ArrayList<>(List.of("aggregate", "--bootstrap-servers", bootstrapServers,
                "--http", address.getHostString() + ":" + address.getPort()));
        if (view.alertWebhook() != null) {
            args.addAll(List.of("--alert-webhook", view.alertWebhook().toString()));
        }
        Path log = outDir.resolve("live-aggregator.log");
        Path stateDir;
        try {
            Files.createDirectories(outDir);
            stateDir = Files.createTempDirectory("tailstream-live-streams-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the live aggregator's folders", e);
        }
        args.addAll(List.of("--state-dir", stateDir.toString()));
        Process process = ChildJvm.of(Main.class).prefix(LowestPriority.commandPrefix()).jvmOptions(JVM_OPTIONS)
                .args(args).start(log);
        URI page = URI.create("http://" + address.getHostString() + ":" + address.getPort() + "/");
        LiveAggregator live = new LiveAggregator(process, page, log, stateDir);
        try {
            live.awaitRunning();
            LowestPriority.lowerSessionGroup(process.pid());
            return live;
        } catch (RuntimeException e) {
            live.close();
            throw e;
        }
    }

    /** The aggregator still runs. */
    boolean alive() {
        return process.isAlive();
    }

    /** Puts the aggregator back at normal priority where allowed: the load has ended ({@link LowestPriority}). */
    void raiseToNormalPriority() {
        LowestPriority.raiseToNormal(process.pid());
    }

    /** The live page. */
    URI page() {
        return page;
    }

    /** The aggregator's console. */
    Path log() {
        return log;
    }

    /** Polls {@code /api/status} until the aggregator runs. */
    private void awaitRunning() {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest status = HttpRequest.newBuilder(page.resolve("/api/status")).timeout(Duration.ofSeconds(5))
                .build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new UserFacingException("the live aggregator exited with status " + process.exitValue()
                        + " before it ran; see " + log);
            }
            try {
                HttpResponse<String> r = client.send(status, HttpResponse.BodyHandlers.ofString());
                Matcher m = STATE.matcher(r.body());
                if (r.statusCode() == 200 && m.find() && (m.group(1).equals("running")
                        || m.group(1).equals("caught_up"))) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UserFacingException("interrupted while the live aggregator started", e);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new UserFacingException("the live aggregator did not run within " + START_TIMEOUT.toSeconds()
                        + " s; see " + log);
            }
            sleep(250);
        }
    }

    /** {@code HOST:PORT}; port 0 is replaced by a port free now. */
    static InetSocketAddress resolve(String hostPort) {
        String address = LiveView.address(hostPort);
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        int port = Integer.parseInt(address.substring(colon + 1));
        if (port != 0) {
            return InetSocketAddress.createUnresolved(host, port);
        }
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return InetSocketAddress.createUnresolved(host, probe.getLocalPort());
        } catch (IOException e) {
            throw new UserFacingException("cannot listen on " + host + " for the live page: " + e.getMessage(), e);
        }
    }

    /** Stops the aggregator (as Ctrl-C would: its last windows committed), killing it if it does not stop in time. */
    @Override
    public void close() {
        try {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LocalPipeline.deleteRecursively(stateDir);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserFacingException("interrupted while the live aggregator started", e);
        }
    }
}
