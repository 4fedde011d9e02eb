/**
 * The aggregator's live monitor: a read-only HTTP endpoint for a running aggregator (off unless
 * {@code tailstream aggregate --http-port N} asks for it; bound to 127.0.0.1 by default).
 *
 * <ul>
 *   <li>{@link io.tailstream.aggregator.http.LiveWindows}: the last windows of every (run, step, op) and the stalls of
 *       every step, fed by the topology as it emits them (a {@link io.tailstream.aggregator.topology.TopologyListener}),
 *       and the Micrometer meters of the latest figures;</li>
 *   <li>{@link io.tailstream.aggregator.http.MonitorServer}: the JDK's HTTP server with {@code /metrics}
 *       (Prometheus), {@code /api/runs}, {@code /api/windows} (JSON) and {@code /} (a self-contained page that
 *       polls the API every second).</li>
 * </ul>
 *
 * See {@code docs/aggregator.md}, section "Live monitor".
 */
package io.tailstream.aggregator.http;
