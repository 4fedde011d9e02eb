package io.tailstream.aggregator.http;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.StepEnded;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * One producer's series on {@code /metrics}, from its control events, tagged {@code run} and {@code producer}: the
 * latest {@code client_health} (CPU, emission backlog, client-bound flag, round trip, step) and its {@code
 * step_ended} totals (samples sent, blocks spooled). With several producers in a run, each is a series of its own.
 */
final class ProducerGauges {

    private volatile ClientHealth health;
    /** Health reports seen, and of them those that said client-bound (guarded by this). */
    private long reports;
    private long clientBoundReports;
    /** Each step's {@code step_ended}, the last per step (a re-sent event replaces its first copy). */
    private final Map<Integer, StepEnded> ends = new ConcurrentHashMap<>();
    final List<Meter> meters;

    ProducerGauges(MeterRegistry registry, String runId, String producerId) {
        Tags tags = Tags.of("run", runId, "producer", producerId);
        this.meters = List.of(
                health(registry, "tailstream.producer.load.gen.cpu.percent", "CPU of the load generator's own"
                        + " threads in its latest health report, % of its machine", tags,
                        h -> h.loadGenCpuPct() != null ? h.loadGenCpuPct() : h.processCpuPct()),
                health(registry, "tailstream.producer.process.cpu.percent", "CPU of the producer's process in its"
                        + " latest health report, % of its machine", tags, ClientHealth::processCpuPct),
                health(registry, "tailstream.producer.emit.backlog.blocks", "Sample blocks waiting to be sent to"
                        + " Kafka in the producer's latest health report", tags, h -> h.emitBacklogBlocks()),
                health(registry, "tailstream.producer.client.bound", "1 when the producer's latest health report"
                        + " says it is client-bound", tags, h -> h.clientBound() ? 1 : 0),
                health(registry, "tailstream.producer.rtt.seconds", "Round trip to its slowest target in the"
                        + " producer's latest health report", tags,
                        h -> h.rttMillis().values().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
                                / 1e3),
                health(registry, "tailstream.producer.step", "The step of the producer's latest health report",
                        tags, h -> h.stepId()),
                Gauge.builder("tailstream.producer.samples.sent", this, g -> g.sum(StepEnded::samplesSent))
                        .description("Samples the producer sent in the steps it ended").tags(tags)
                        .register(registry),
                Gauge.builder("tailstream.producer.blocks.spooled", this,
                                g -> g.sum(e -> e.blocksSpooled() == null ? 0 : e.blocksSpooled()))
                        .description("Blocks that went through the producer's spool in the steps it ended")
                        .tags(tags).register(registry));
    }

    private Meter health(MeterRegistry registry, String name, String description, Tags tags,
                         ToDoubleFunction<ClientHealth> value) {
        return Gauge.builder(name, this, g -> {
            ClientHealth h = g.health;
            return h == null ? Double.NaN : value.applyAsDouble(h);
        }).description(description).tags(tags).register(registry);
    }

    private double sum(java.util.function.ToLongFunction<StepEnded> value) {
        return ends.values().stream().mapToLong(value).sum();
    }

    /**
     * A producer's client health for the live page.
     *
     * @param latest             its latest health report
     * @param reports            health reports seen (once a second while it runs)
     * @param clientBoundReports of them, those that said it was client-bound
     */
    record Health(String producerId, ClientHealth latest, long reports, long clientBoundReports) {}

    synchronized Health view(String producerId) {
        return new Health(producerId, health, reports, clientBoundReports);
    }

    synchronized void health(ClientHealth h) {
        reports++;
        if (h.clientBound()) {
            clientBoundReports++;
        }
        ClientHealth previous = health;
        if (previous == null || h.atEpochMs() >= previous.atEpochMs()) {
            health = h;
        }
    }

    void ended(StepEnded e) {
        ends.put(e.stepId(), e);
    }
}
