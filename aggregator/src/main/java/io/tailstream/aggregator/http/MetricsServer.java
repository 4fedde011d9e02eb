package io.tailstream.aggregator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Prometheus endpoint alone, for the processes that have no live monitor (the archiver, a producer):
 * {@code GET /metrics} answers the registry's text exposition, {@code /} names it, anything else is 404, a method
 * other than GET or HEAD 405, as {@link MonitorServer} answers them. The JDK's {@link HttpServer} on one daemon
 * thread; no authentication, read-only. Thread safe; {@link #close()} is idempotent.
 */
public final class MetricsServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final PrometheusMeterRegistry registry;

    private MetricsServer(HttpServer server, ExecutorService executor, PrometheusMeterRegistry registry) {
        this.server = server;
        this.executor = executor;
        this.registry = registry;
    }

    /**
     * Starts serving {@code registry} on {@code address} (port 0 picks a free port, see {@link #url()}).
     *
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    public static MetricsServer start(InetSocketAddress address, PrometheusMeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        HttpServer server;
        try {
            server = HttpServer.create(Objects.requireNonNull(address, "address"), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tailstream-metrics-http");
            t.setDaemon(true);
            return t;
        });
        MetricsServer metrics = new MetricsServer(server, executor, registry);
        server.createContext("/", metrics::handle);
        server.setExecutor(executor);
        server.start();
        return metrics;
    }

    /** The metrics URL, e.g. {@code http://127.0.0.1:9465/metrics}. */
    public String url() {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/metrics";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!MonitorServer.readOnly(exchange)) {
                return;
            }
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/metrics" -> MonitorServer.send(exchange, 200, MonitorServer.PROMETHEUS_CONTENT_TYPE,
                        registry.scrape().getBytes(StandardCharsets.UTF_8));
                case "/" -> MonitorServer.send(exchange, 200, "text/plain; charset=utf-8",
                        "tailstream: metrics on /metrics\n".getBytes(StandardCharsets.UTF_8));
                default -> MonitorServer.send(exchange, 404, "text/plain; charset=utf-8",
                        ("no such resource: " + path + " (try /metrics)\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
