package io.tailstream.aggregator.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.topology.TopologyListener;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The live view's memory over a long soak: publishes {@code hours} of a soak's output to a broker, as the
 * aggregator would have (one step, all ops and two ops: a 1 s window of each with its latency histogram, 10 s and
 * 60 s roll-ups of the step, a producer's client health and its reading of the server's counters every second, a 5 s
 * stall every 10 minutes), then replays it
 * into a fresh {@link LiveWindows} with {@link LiveReplay} (what a restarted aggregator does), printing the heap in
 * use after a full collection every simulated hour, and the replay's speed.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -Xmx1g -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp benchmarks/target/benchmarks.jar \
 *     io.tailstream.aggregator.http.LiveViewMemoryMain 23      # hours of soak (at most 23: the replay reads a day)
 * </pre>
 * Results are recorded in {@code docs/benchmarks.md}.
 */
public final class LiveViewMemoryMain {

    private static final List<String> OPS = List.of(WindowStats.ALL_OPS, "read", "write");

    private LiveViewMemoryMain() {}

    public static void main(String[] args) throws Exception {
        int hours = args.length > 0 ? Integer.parseInt(args[0]) : 23;
        long seconds = hours * 3600L;
        long t0 = (System.currentTimeMillis() / 60_000 - seconds / 60 - 5) * 60_000;
        // the broker in a JVM of its own: the heap measured here is the live view's and the replay's consumer's
        try (KafkaCluster kafka = KafkaCluster.start(1)) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            long published = publish(kafka.bootstrapServers(), t0, seconds);
            System.out.printf("published %,d records: %d h of one step's windows, roll-ups, health and stalls%n",
                    published, hours);

            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            LiveWindows live = new LiveWindows(registry);
            long before = heapAfterGc();
            long[] nextHour = {t0 + 3_600_000};
            TopologyListener probe = new TopologyListener() {
                @Override
                public void onWindow(WindowStats w) {
                    live.onWindow(w);
                    if (w.op().equals(WindowStats.ALL_OPS) && w.windowStartEpochMs() >= nextHour[0]) {
                        System.out.printf("after %2d h: live view %,d kB (heap in use after a full collection)%n",
                                (nextHour[0] - t0) / 3_600_000, (heapAfterGc() - before) / 1024);
                        nextHour[0] += 3_600_000;
                    }
                }

                @Override
                public void onRollup(WindowStats w) {
                    live.onRollup(w);
                }

                @Override
                public void onStall(StallEvent s) {
                    live.onStall(s);
                }

                @Override
                public void onControl(ControlEvent e) {
                    live.onControl(e);
                }
            };
            LiveReplay.Result r = LiveReplay.replay(kafka.bootstrapServers(), Map.of(), LiveReplay.DEFAULT_SPAN,
                    1_000, probe, System.out::println);
            System.out.printf("replayed %,d records in %.1f s (%,.0f records/s; the hourly collections included)%n",
                    r.records(), r.took().toMillis() / 1000.0, r.records() / (r.took().toMillis() / 1000.0));
            System.out.printf("at the end: live view %,d kB; timeline points %,d; stalls %,d%n",
                    (heapAfterGc() - before) / 1024, live.timeline("soak", 1).points().size(),
                    live.timeline("soak", 1).stalls().size());
        }
    }

    /** Publishes the soak's output; returns the records sent. */
    private static long publish(String bootstrap, long t0, long seconds) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 50);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        SplittableRandom random = new SplittableRandom(1);
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long s = 0; s < seconds; s++) {
                long start = t0 + s * 1000;
                for (String op : OPS) {
                    sent += send(producer, Topics.WINDOWS, window(op, start, 1_000, random));
                }
                if (s % 10 == 9) {
                    sent += send(producer, Topics.WINDOWS, window(WindowStats.ALL_OPS, start - 9_000, 10_000,
                            random));
                }
                if (s % 60 == 59) {
                    sent += send(producer, Topics.WINDOWS, window(WindowStats.ALL_OPS, start - 59_000, 60_000,
                            random));
                }
                sent += send(producer, Topics.CONTROL, new ClientHealth("soak", start, "p1", 1, 40, 95, 0, 0,
                        Map.of("db", 0.2), false));
                sent += send(producer, Topics.CONTROL, reading(start, random));
                if (s % 600 == 300) {
                    sent += send(producer, Topics.STALLS, new StallEvent("soak", 1, StallEvent.HARD, start,
                            start + 5_000, false, 2_000, 0, 2_000, 0, List.of(WindowStats.ALL_OPS), start + 8_000));
                }
            }
            producer.flush();
        }
        return sent;
    }

    /** A MariaDB reading: the gauges and counters the producer reads, with changing values. */
    private static ServerCounters reading(long at, SplittableRandom random) {
        Map<String, Long> gauges = new java.util.TreeMap<>();
        for (String name : List.of("Threads_running", "Threads_connected", "Innodb_buffer_pool_pages_dirty",
                "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_pages_free", "Innodb_checkpoint_age",
                "Innodb_checkpoint_max_age", "Innodb_row_lock_current_waits", "trx_rseg_history_len",
                "Innodb_history_list_length", "state.Sending data", "state.Waiting for table metadata lock")) {
            gauges.put(name, random.nextLong(1, 100_000));
        }
        Map<String, Long> counters = new java.util.TreeMap<>();
        for (String name : List.of("Innodb_os_log_written", "Innodb_data_written", "Innodb_data_fsyncs",
                "Innodb_buffer_pool_pages_flushed", "Innodb_row_lock_waits", "Innodb_row_lock_time", "Com_commit",
                "Com_select", "Com_insert", "Com_update", "Com_delete", "Slow_queries", "Questions",
                "Bytes_received", "Bytes_sent", "Innodb_rows_read", "Innodb_rows_inserted")) {
            counters.put(name, at + random.nextLong(1_000_000));
        }
        return new ServerCounters("soak", at, "p1", 1, "db", gauges, counters, 900, null);
    }

    private static long send(KafkaProducer<byte[], byte[]> producer, String topic, Object value) {
        String key = value instanceof WindowStats w ? w.scopeKey()
                : value instanceof StallEvent s ? s.key() : "soak";
        long at = value instanceof WindowStats w ? w.windowEndEpochMs()
                : value instanceof StallEvent s ? s.endEpochMs() : ((ControlEvent) value).atEpochMs();
        producer.send(new ProducerRecord<>(topic, null, at, key.getBytes(StandardCharsets.UTF_8), Json.write(value)));
        return 1;
    }

    /** A window of about 2,000 transactions a second with a realistic histogram (50 µs..200 ms, log-uniform). */
    private static WindowStats window(String op, long start, long lengthMs, SplittableRandom random) {
        Histogram h = LatencyHistograms.create();
        long count = 2 * lengthMs;
        for (int i = 0; i < 200; i++) {
            h.recordValueWithCount((long) Math.exp(Math.log(50) + random.nextDouble() * Math.log(4_000)), count / 200);
        }
        return WindowStats.of("soak", 1, op, start, start + lengthMs, h.getTotalCount(), 0, Map.of(),
                h.getTotalCount() * 6, h.getTotalCount() * 6, h, null, 0, 0, null);
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
