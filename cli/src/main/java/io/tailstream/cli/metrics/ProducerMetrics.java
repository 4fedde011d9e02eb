package io.tailstream.cli.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolingTransport.SpoolNow;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * A producer's meters ({@code run --http-port}), read from its sample sink at every scrape, in Prometheus names:
 * the spool, {@code tailstream_producer_spool_bytes} (on disk), {@code tailstream_producer_spool_blocks},
 * {@code tailstream_producer_spool_control_events}, {@code tailstream_producer_spooling} (1 while new blocks go to
 * the spool), {@code tailstream_producer_spool_limit_bytes}, {@code tailstream_producer_spooled_blocks_total}; and
 * the emission, {@code tailstream_producer_blocks_sent_total}, {@code tailstream_producer_samples_sent_total}
 * (acknowledged), {@code tailstream_producer_backlog_blocks}. Before the run starts every value is 0.
 *
 * <p>Kafka cannot carry these while it is away: this endpoint is how a spool filling during a broker outage is seen.
 */
public final class ProducerMetrics {

    private static final SpoolNow NO_SPOOL = new SpoolNow(0, 0, 0, false, 0, 0);

    private ProducerMetrics() {}

    /**
     * Registers the meters; {@code sink} is read at every scrape (null before the run starts). Micrometer holds
     * {@code sink} weakly: the caller keeps it reachable while the registry is scraped (an unreachable one reads
     * NaN).
     */
    public static void bind(MeterRegistry registry, AtomicReference<SampleSink> sink) {
        spoolGauge(registry, "tailstream.producer.spool.bytes", "Bytes the spool files hold on disk (blocks and"
                + " control events not yet replayed)", sink, SpoolNow::heldBytes);
        spoolGauge(registry, "tailstream.producer.spool.blocks", "Sample blocks in the spool, not yet handed to"
                + " Kafka", sink, SpoolNow::blocksWaiting);
        spoolGauge(registry, "tailstream.producer.spool.control.events", "Control events not yet acknowledged by"
                + " Kafka", sink, SpoolNow::controlEventsWaiting);
        spoolGauge(registry, "tailstream.producer.spooling", "1 while new blocks go to the spool (Kafka slow or"
                + " away), else 0", sink, s -> s.spooling() ? 1 : 0);
        spoolGauge(registry, "tailstream.producer.spool.limit.bytes", "The spool's limit (--spool-limit); reaching"
                + " it stops the run", sink, SpoolNow::limitBytes);
        FunctionCounter.builder("tailstream.producer.spooled.blocks", sink, s -> spool(s).blocksSpooled())
                .description("Blocks appended to the spool (a block spooled again counts again)").register(registry);
        FunctionCounter.builder("tailstream.producer.blocks.sent", sink, s -> s.get() == null ? 0 : s.get().blocksSent())
                .description("Sample blocks sent (sequence numbers assigned), markers included").register(registry);
        FunctionCounter.builder("tailstream.producer.samples.sent", sink,
                        s -> s.get() == null ? 0 : s.get().samplesSent())
                .description("Samples acknowledged by Kafka").register(registry);
        Gauge.builder("tailstream.producer.backlog.blocks", sink, s -> s.get() == null ? 0 : s.get().backlogBlocks())
                .description("Blocks sealed or handed over and not yet acknowledged").register(registry);
    }

    private static SpoolNow spool(AtomicReference<SampleSink> sink) {
        SampleSink s = sink.get();
        SpoolNow now = s == null ? null : s.spoolNow();
        return now == null ? NO_SPOOL : now;
    }

    private static void spoolGauge(MeterRegistry registry, String name, String description,
                                   AtomicReference<SampleSink> sink, ToDoubleFunction<SpoolNow> value) {
        Gauge.builder(name, sink, s -> value.applyAsDouble(spool(s))).description(description).register(registry);
    }
}
