package io.tailstream.aggregator.http;

import com.sun.net.httpserver.HttpExchange;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.analysis.counters.ServerLines;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator's read-only live monitor over HTTP (the JDK's HTTP server, two threads):
 *
 * <ul>
 *   <li>{@code GET /metrics}: Prometheus text format of {@link LiveWindows}' meters;</li>
 *   <li>{@code GET /api/status}: JSON, what the aggregator is doing (starting, waiting for partitions, restoring
 *       its state stores with the records still to restore, running, caught up);</li>
 *   <li>{@code GET /api/runs}: JSON, runs and steps with their latest window per op, errors and stalls;</li>
 *   <li>{@code GET /api/windows?run=R&step=S[&op=*][&limit=60]}: JSON, the newest closed windows of a scope, newest
 *       first (limit 1..{@value LiveWindows#DEFAULT_WINDOWS_KEPT}), and under {@code open} the windows still
 *       collecting samples, read by interactive queries ({@link OpenWindows}); if those cannot be read right now
 *       (a rebalance), {@code open} is null and {@code openUnavailable} says why;</li>
 *   <li>{@code GET /}: a self-contained HTML page that polls the API every second (no external resources).</li>
 * </ul>
 *
 * Anything else is 404; a method other than GET or HEAD is 405; a bad query parameter is 400 with the parameter
 * named. Bind it to the loopback address (the default of {@code tailstream aggregate}): there is no authentication.
 *
 * <p>Thread safe; {@link #close()} is idempotent.
 */
public final class MonitorServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MonitorServer.class);
    private static final int DEFAULT_LIMIT = 60;

    private final LiveWindows live;
    private final OpenWindows openWindows;
    private final PrometheusMeterRegistry registry;
    private final byte[] page;
    private final Supplier<Map<String, Object>> status;
    private final ReadOnlyHttp http;

    private MonitorServer(InetSocketAddress address, LiveWindows live, OpenWindows openWindows,
                          PrometheusMeterRegistry registry, byte[] page, Supplier<Map<String, Object>> status) {
        this.status = status;
        this.live = live;
        this.openWindows = openWindows;
        this.registry = registry;
        this.page = page;
        this.http = ReadOnlyHttp.start(address, 2, "tailstream-monitor-http", this::answer);
    }

    /**
     * Starts serving.
     *
     * @param address  where to listen; port 0 picks a free port (see {@link #address()})
     * @param open     the open windows ({@link OpenWindows#NONE} without an aggregator)
     * @param registry the registry {@code live} registered its meters in
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    public static MonitorServer start(InetSocketAddress address, LiveWindows live, OpenWindows open,
                                      PrometheusMeterRegistry registry) {
        return start(address, live, open, registry, Map::of);
    }

    /**
     * Starts serving, with {@code /api/status} answering what {@code status} returns (the aggregator's lifecycle,
     * {@link io.tailstream.aggregator.AggregatorStatus#snapshot()}); otherwise as
     * {@link #start(InetSocketAddress, LiveWindows, OpenWindows, PrometheusMeterRegistry)}.
     */
    public static MonitorServer start(InetSocketAddress address, LiveWindows live, OpenWindows open,
                                      PrometheusMeterRegistry registry, Supplier<Map<String, Object>> status) {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(live, "live");
        Objects.requireNonNull(open, "open");
        Objects.requireNonNull(registry, "registry");
        byte[] page;
        try (InputStream in = MonitorServer.class.getResourceAsStream("live.html")) {
            if (in == null) {
                throw new IllegalStateException("live.html is missing from the class path next to "
                        + MonitorServer.class.getName());
            }
            page = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read live.html", e);
        }
        MonitorServer monitor = new MonitorServer(address, live, open, registry, page, status);
        LOG.info("live monitor on {}", monitor.url());
        return monitor;
    }

    /** The bound address (with the actual port). */
    public InetSocketAddress address() {
        return http.address();
    }

    /** The page's URL, e.g. {@code http://127.0.0.1:9464/}. */
    public String url() {
        return http.url("/");
    }

    @Override
    public void close() {
        http.close();
    }

    private void answer(HttpExchange exchange, String path) throws IOException {
        try {
            switch (path) {
                case "/" -> ReadOnlyHttp.send(exchange, 200, "text/html; charset=utf-8", page);
                case "/metrics" -> ReadOnlyHttp.send(exchange, 200, ReadOnlyHttp.PROMETHEUS_CONTENT_TYPE,
                        registry.scrape().getBytes(StandardCharsets.UTF_8));
                case "/api/runs" -> sendJson(exchange, Map.of("runs", runs()));
                case "/api/status" -> sendJson(exchange, status.get());
                case "/api/windows" -> sendJson(exchange, windows(query(exchange.getRequestURI().getRawQuery())));
                case "/api/timeline" -> sendJson(exchange, timeline(query(exchange.getRequestURI().getRawQuery())));
                default -> ReadOnlyHttp.sendText(exchange, 404, "no such resource: " + path
                        + " (try /, /metrics, /api/status, /api/runs, /api/windows, /api/timeline)\n");
            }
        } catch (BadRequest e) {
            ReadOnlyHttp.sendText(exchange, 400, e.getMessage() + "\n");
        } catch (RuntimeException e) {
            LOG.warn("monitor request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            ReadOnlyHttp.sendText(exchange, 500, "internal error: " + e + "\n");
        }
    }

    private List<Map<String, Object>> runs() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (LiveWindows.RunView run : live.runs()) {
            List<Map<String, Object>> steps = new ArrayList<>();
            for (LiveWindows.StepView step : run.steps()) {
                Map<String, Object> latest = new LinkedHashMap<>();
                step.latest().forEach((op, w) -> latest.put(op, window(w)));
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("step", step.step());
                s.put("latest", latest);
                s.put("errorsTotal", step.errorsTotal());
                s.put("openStalls", step.openStalls());
                s.put("endedStalls", step.endedStalls());
                steps.add(s);
            }
            out.add(Map.of("run", run.run(), "steps", steps));
        }
        return out;
    }

    private Map<String, Object> windows(Map<String, String> query) {
        String run = query.get("run");
        if (run == null || run.isEmpty()) {
            throw new BadRequest("query parameter 'run' is required, e.g. /api/windows?run=R&step=1");
        }
        int step = intParam(query, "step", null, 0, Integer.MAX_VALUE);
        int limit = intParam(query, "limit", DEFAULT_LIMIT, 1, LiveWindows.DEFAULT_WINDOWS_KEPT);
        String op = query.getOrDefault("op", WindowStats.ALL_OPS);
        List<Map<String, Object>> windows = new ArrayList<>();
        for (WindowStats w : live.windows(run, step, op, limit)) {
            windows.add(window(w));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("run", run);
        out.put("step", step);
        out.put("op", op);
        out.put("windows", windows);
        try {
            List<Map<String, Object>> open = new ArrayList<>();
            for (WindowStats w : openWindows.open(run, step, op)) {
                open.add(window(w));
            }
            out.put("open", open);
        } catch (RuntimeException e) {
            // Kafka Streams answers interactive queries only while running; the closed windows are still good
            LOG.debug("open windows of {}/{}/{} unavailable", run, step, op, e);
            out.put("open", null);
            out.put("openUnavailable", String.valueOf(e.getMessage()));
        }
        return out;
    }

    /**
     * A step's whole course so far ({@link LiveWindows#timeline}): its roll-up points, soak figures, stalls and errors,
     * and the run's producers with their latest client health.
     */
    private Map<String, Object> timeline(Map<String, String> query) {
        String run = query.get("run");
        if (run == null || run.isEmpty()) {
            throw new BadRequest("query parameter 'run' is required, e.g. /api/timeline?run=R&step=1");
        }
        int step = intParam(query, "step", null, 0, Integer.MAX_VALUE);
        LiveWindows.TimelineView t = live.timeline(run, step);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("run", run);
        out.put("step", step);
        List<Map<String, Object>> points = new ArrayList<>();
        for (StepTimeline.Point p : t == null ? List.<StepTimeline.Point>of() : t.points()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("startEpochMs", p.startMs());
            m.put("endEpochMs", p.endMs());
            m.put("count", p.count());
            m.put("errors", p.errors());
            m.put("qps", p.qps());
            m.put("tps", p.tps());
            m.put("p99Micros", p.p99Micros());
            m.put("maxMicros", p.maxMicros());
            points.add(m);
        }
        out.put("points", points);
        out.put("trend", t == null ? null : t.trend());
        out.put("stalls", t == null ? List.of() : t.stalls());
        out.put("errorsTotal", t == null ? 0 : t.errorsTotal());
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("sessions", t == null ? List.of() : lines(t.server().sessions()));
        server.put("pressure", t == null ? List.of() : lines(t.server().pressure()));
        out.put("server", server);
        List<Map<String, Object>> producers = new ArrayList<>();
        for (ProducerGauges.Health h : live.producers(run)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("producerId", h.producerId());
            m.put("reports", h.reports());
            m.put("clientBoundReports", h.clientBoundReports());
            m.put("latest", h.latest());
            producers.add(m);
        }
        out.put("producers", producers);
        return out;
    }

    /** Lines as {@code label}, {@code atEpochMs} and {@code values} (null for a failed reading). */
    private static List<Map<String, Object>> lines(List<ServerLines.Line> lines) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ServerLines.Line l : lines) {
            List<Double> values = new ArrayList<>(l.values().length);
            for (double v : l.values()) {
                values.add(Double.isNaN(v) ? null : v);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("label", l.label());
            m.put("atEpochMs", l.atMs());
            m.put("values", values);
            out.add(m);
        }
        return out;
    }

    /** A window without its histogram (kilobytes of base64 nobody polling every second needs). */
    private static Map<String, Object> window(WindowStats w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", w.op());
        m.put("windowStartEpochMs", w.windowStartEpochMs());
        m.put("windowEndEpochMs", w.windowEndEpochMs());
        m.put("count", w.count());
        m.put("errors", w.errors());
        m.put("queries", w.queries());
        m.put("okQueries", w.okQueries());
        m.put("lateCount", w.lateCount());
        m.put("warmupCount", w.warmupCount());
        m.put("qps", w.qps());
        m.put("tps", w.tps());
        m.put("errorsPerSecond", w.errorsPerSecond());
        m.put("meanMicros", w.meanMicros());
        m.put("p50Micros", w.p50Micros());
        m.put("p95Micros", w.p95Micros());
        m.put("p99Micros", w.p99Micros());
        m.put("maxMicros", w.maxMicros());
        return m;
    }

    private static int intParam(Map<String, String> query, String name, Integer byDefault, int min, int max) {
        String value = query.get(name);
        if (value == null) {
            if (byDefault == null) {
                throw new BadRequest("query parameter '" + name + "' is required");
            }
            return byDefault;
        }
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new BadRequest("query parameter '" + name + "' must be an integer, got '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new BadRequest("query parameter '" + name + "' must be in " + min + ".." + max + ", got " + parsed);
        }
        return parsed;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(key, value);
        }
        return out;
    }

    private static void sendJson(HttpExchange exchange, Object body) throws IOException {
        ReadOnlyHttp.send(exchange, 200, "application/json", Json.write(body));
    }

    /** A request the server cannot answer as asked (400). */
    private static final class BadRequest extends RuntimeException {
        BadRequest(String message) {
            super(message);
        }
    }
}
