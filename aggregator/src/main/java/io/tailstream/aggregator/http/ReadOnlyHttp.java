package io.tailstream.aggregator.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What {@link MonitorServer} and {@link MetricsServer} share: the JDK's {@link HttpServer} on daemon threads,
 * answering GET and HEAD through a {@link Route} and any other method with 405. Thread safe; {@link #close()} is
 * idempotent.
 */
final class ReadOnlyHttp implements AutoCloseable {

    /** Prometheus text exposition format 0.0.4. */
    static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";

    /** Answers a GET or HEAD request for {@code path}; the exchange is closed afterwards. */
    @FunctionalInterface
    interface Route {
        void answer(HttpExchange exchange, String path) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private ReadOnlyHttp(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving {@code route} on {@code address} (port 0 picks a free port) with {@code threads} daemon threads
     * named {@code threadName}.
     *
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    static ReadOnlyHttp start(InetSocketAddress address, int threads, String threadName, Route route) {
        Objects.requireNonNull(route, "route");
        HttpServer server;
        try {
            server = HttpServer.create(Objects.requireNonNull(address, "address"), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        server.createContext("/", exchange -> {
            try (exchange) {
                if (readOnly(exchange)) {
                    route.answer(exchange, exchange.getRequestURI().getPath());
                }
            }
        });
        server.setExecutor(executor);
        server.start();
        return new ReadOnlyHttp(server, executor);
    }

    /** The bound address (with the actual port). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    /** The URL of {@code path} ({@code "/"}, {@code "/metrics"}) on the bound address. */
    String url(String path) {
        return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** True for GET and HEAD; anything else is answered 405 with {@code Allow: GET, HEAD} here. */
    private static boolean readOnly(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if ("GET".equals(method) || "HEAD".equals(method)) {
            return true;
        }
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        send(exchange, 405, TEXT, ("method " + method + " not allowed: the endpoint is read-only\n")
                .getBytes(StandardCharsets.UTF_8));
        return false;
    }

    /** Sends {@code body} (headers only for HEAD), never cached. */
    static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Sends {@code text} as UTF-8 plain text. */
    static void sendText(HttpExchange exchange, int status, String text) throws IOException {
        send(exchange, status, TEXT, text.getBytes(StandardCharsets.UTF_8));
    }
}
