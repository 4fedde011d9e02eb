package io.tailstream.aggregator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A Prometheus endpoint alone, for the processes that have no live monitor (the archiver, a producer):
 * {@code GET /metrics} answers the registry's text exposition, {@code /} names it, anything else is 404, a method
 * other than GET or HEAD 405, as {@link MonitorServer} answers them. The JDK's {@link HttpServer} on one daemon
 * thread; no authentication, read-only. Thread safe; {@link #close()} is idempotent.
 */
public final class MetricsServer implements AutoCloseable {

    private final PrometheusMeterRegistry registry;
    private final ReadOnlyHttp http;

    private MetricsServer(InetSocketAddress address, PrometheusMeterRegistry registry) {
        this.registry = registry;
        this.http = ReadOnlyHttp.start(address, 1, "tailstream-metrics-http", this::answer);
    }

    /**
     * Starts serving {@code registry} on {@code address} (port 0 picks a free port, see {@link #url()}).
     *
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    public static MetricsServer start(InetSocketAddress address, PrometheusMeterRegistry registry) {
        return new MetricsServer(address, Objects.requireNonNull(registry, "registry"));
    }

    /** The metrics URL, e.g. {@code http://127.0.0.1:9465/metrics}. */
    public String url() {
        return http.url("/metrics");
    }

    @Override
    public void close() {
        http.close();
    }

    private void answer(HttpExchange exchange, String path) throws IOException {
        switch (path) {
            case "/metrics" -> ReadOnlyHttp.send(exchange, 200, ReadOnlyHttp.PROMETHEUS_CONTENT_TYPE,
                    registry.scrape().getBytes(StandardCharsets.UTF_8));
            case "/" -> ReadOnlyHttp.sendText(exchange, 200, "tailstream: metrics on /metrics\n");
            default -> ReadOnlyHttp.sendText(exchange, 404, "no such resource: " + path + " (try /metrics)\n");
        }
    }
}
