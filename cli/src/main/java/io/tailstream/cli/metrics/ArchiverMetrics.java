package io.tailstream.cli.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tailstream.reporter.archive.Archiver;
import io.tailstream.reporter.archive.ArchiverStatus;
import java.util.function.ToDoubleFunction;

/**
 * The archiver's meters, read from {@link Archiver#status()} (published by its loop once a second), in Prometheus
 * names: {@code tailstream_archiver_lag_records{topic}}, {@code tailstream_archiver_lag_samples},
 * {@code tailstream_archiver_lag_seconds}, {@code tailstream_archiver_records_total},
 * {@code tailstream_archiver_samples_total}, {@code tailstream_archiver_blocks_total},
 * {@code tailstream_archiver_files_published_total}, {@code tailstream_archiver_corrupt_records_total}. A value not
 * known yet is NaN.
 */
public final class ArchiverMetrics {

    private ArchiverMetrics() {}

    /**
     * Registers the meters; {@code archiver}'s status is read at every scrape. Micrometer holds {@code archiver}
     * weakly: the caller keeps it reachable while the registry is scraped (an unreachable one reads NaN).
     */
    public static void bind(MeterRegistry registry, Archiver archiver) {
        Archiver status = archiver;
        for (String topic : Archiver.TOPICS) {
            gauge(registry, "tailstream.archiver.lag.records", "Records of the topic published and not yet"
                    + " consumed by the archiver (its partitions summed)", status, s -> {
                        Long lag = s.lagRecords().get(topic);
                        return lag == null ? Double.NaN : lag;
                    }, topic);
        }
        gauge(registry, "tailstream.archiver.lag.samples", "Samples behind the end of the samples topic (records"
                + " behind times the average samples per block)", status, s -> known(s.lagSamples()), null);
        gauge(registry, "tailstream.archiver.lag.seconds", "0 when the samples topic is consumed to its end, else"
                + " the age of the newest block consumed (producer clock)", status, s -> known(s.lagSeconds()), null);
        counter(registry, "tailstream.archiver.records", "Records consumed, all topics", status,
                ArchiverStatus::recordsConsumed);
        counter(registry, "tailstream.archiver.samples", "Samples consumed into the archive (in files at the next"
                + " roll)", status, ArchiverStatus::samplesArchived);
        counter(registry, "tailstream.archiver.blocks", "Sample blocks consumed", status,
                ArchiverStatus::blocksArchived);
        counter(registry, "tailstream.archiver.files.published", "Parquet files moved into place", status,
                ArchiverStatus::filesPublished);
        counter(registry, "tailstream.archiver.corrupt.records", "Records that could not be decoded and were"
                + " skipped", status, ArchiverStatus::corruptRecords);
    }

    private static double known(double value) {
        return value < 0 ? Double.NaN : value;
    }

    private static void gauge(MeterRegistry registry, String name, String description, Archiver status,
                              ToDoubleFunction<ArchiverStatus> value, String topic) {
        Gauge.Builder<Archiver> b = Gauge.builder(name, status, a -> value.applyAsDouble(a.status()))
                .description(description);
        if (topic != null) {
            b.tag("topic", topic);
        }
        b.register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String description,
                                Archiver status, ToDoubleFunction<ArchiverStatus> value) {
        FunctionCounter.builder(name, status, a -> value.applyAsDouble(a.status())).description(description)
                .register(registry);
    }
}
