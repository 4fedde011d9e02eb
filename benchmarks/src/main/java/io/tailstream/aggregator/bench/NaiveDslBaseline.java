package io.tailstream.aggregator.bench;

import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

/**
 * The naive design the aggregator's throughput is compared with: every sample becomes a record, and a DSL windowed
 * {@code aggregate} keeps an HdrHistogram per scope and window in an in-memory window store, serialized (compressed
 * HdrHistogram encoding) on every update, with the same exactly-once guarantee. Measured in the same run as
 * tailstream's aggregator so the ratio is not skewed by how busy the shared machine is.
 */
final class NaiveDslBaseline {

    static final String INPUT = "naive-bench-samples";

    record Result(double seconds, double samplesPerSecond) {}

    private NaiveDslBaseline() {}

    static Result run(String bootstrap, long samples, Path stateDir) throws InterruptedException {
        AtomicLong aggregated = new AtomicLong();
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.ByteArray()))
                .flatMap((key, block) -> {
                    List<KeyValue<String, Long>> out = new ArrayList<>();
                    SampleBlockDecoder.decode(block, (start, latency, intended, op, status, queries, warmup) ->
                            out.add(KeyValue.pair(key + "/" + op, latency)));
                    return out;
                })
                .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .aggregate(LatencyHistograms::create, (scope, latency, histogram) -> {
                    LatencyHistograms.record(histogram, latency);
                    aggregated.incrementAndGet();
                    return histogram;
                }, Materialized.with(Serdes.String(), histogramSerde()));
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "naive-bench");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        long started;
        try (KafkaStreams streams = new KafkaStreams(builder.build(), p)) {
            streams.start();
            while (aggregated.get() == 0) {
                Thread.sleep(5);
            }
            started = System.nanoTime();
            long from = aggregated.get();
            while (aggregated.get() < samples) {
                Thread.sleep(5);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            return new Result(seconds, (samples - from) / seconds);
        }
    }

    private static Serde<Histogram> histogramSerde() {
        Serializer<Histogram> ser = (topic, h) -> {
            ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(buf);
            byte[] out = new byte[n];
            buf.flip();
            buf.get(out);
            return out;
        };
        Deserializer<Histogram> de = (topic, bytes) -> {
            try {
                return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
            } catch (DataFormatException e) {
                throw new IllegalStateException("corrupt histogram in the naive baseline's store", e);
            }
        };
        return Serdes.serdeFrom(ser, de);
    }
}
