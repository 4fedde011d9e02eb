package io.tailstream.reporter.query;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.archive.ArchiveBenchmarkMain;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The query benchmark on an archive written by the archiver itself (not a unit test; figures in
 * docs/benchmarks.md, "Queries"). Starts the in-process broker with its log under
 * {@code DIR/kafka}, sends {@link QueryBenchmarkMain}'s shape (10 runs of 4 steps, N samples in all) to it as a
 * producer sends it (blocks of 1,024 samples, zstd level 1, acknowledged), aggregates it as {@code run} does (the
 * aggregator until its windows count every sample), archives it with
 * {@code archive --until-caught-up} in a child JVM ({@link ArchiveBenchmarkMain.Child}: samples/s, CPU per sample,
 * peak heap and RSS), prints the archive's bytes per sample by column, then times {@link QueryBenchmarkMain}'s
 * queries over {@code DIR/archive}. Prints the load average (from {@code /proc/loadavg}) after each phase. With an
 * archive already in {@code DIR/archive}, only the queries run.
 *
 * <pre>
 * ./mvnw -q -o -pl benchmarks -am package -DskipTests
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar \
 *   io.tailstream.reporter.query.ArchivedQueryBenchmarkMain DIR 100000000 [iterations, 5 [child -Xmx, 512m
 *   [query name prefix]]]
 * </pre>
 */
public final class ArchivedQueryBenchmarkMain {

    private ArchivedQueryBenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long samples = Long.parseLong(args[1]);
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String heap = args.length > 3 ? args[3] : "512m";
        String only = args.length > 4 ? args[4] : "";
        Path archive = dir.resolve("archive");
        System.out.println("load average at start: " + loadAverage());
        if (!Files.isDirectory(archive.resolve("samples"))) {
            Files.createDirectories(dir);
            try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), true)) {
                TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
                long t0 = System.nanoTime();
                produce(kafka.bootstrapServers(), samples);
                System.out.printf(Locale.ROOT, "produced %,d samples in %.1f s; load average %s%n", samples,
                        (System.nanoTime() - t0) / 1e9, loadAverage());
                t0 = System.nanoTime();
                aggregate(kafka.bootstrapServers(), dir.resolve("aggregator-state"), samples);
                System.out.printf(Locale.ROOT, "aggregated in %.1f s; load average %s%n",
                        (System.nanoTime() - t0) / 1e9, loadAverage());
                ArchiveBenchmarkMain.runChild(kafka.bootstrapServers(), archive, heap, List.of());
                System.out.println("archived; load average " + loadAverage());
            }
            ArchiveBenchmarkMain.report(archive, samples);
        }
        QueryBenchmarkMain.runQueries(archive, iterations, only);
        System.out.println("load average at the end: " + loadAverage());
    }

    /** Runs the aggregator over the backlog until its windows count every sample of every step, as {@code run} does. */
    private static void aggregate(String bootstrap, Path stateDir, long samples) throws Exception {
        Map<Integer, Long> perStep = new TreeMap<>();
        for (int step = 1; step <= 4; step++) {
            perStep.put(step, samples / QueryBenchmarkMain.RUNS / 4);
        }
        try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults(), stateDir);
             AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
            if (!aggregator.awaitRunning(Duration.ofMinutes(2))) {
                throw new IllegalStateException("the aggregator did not start");
            }
            for (int r = 0; r < QueryBenchmarkMain.RUNS; r++) {
                progress.awaitCountsWhileCounting(QueryBenchmarkMain.runId(r), perStep, Duration.ofMinutes(2),
                        counted -> { });
            }
        }
    }

    private static void produce(String bootstrap, long samples) {
        List<Future<?>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = BacklogProducer.create(bootstrap)) {
            QueryBenchmarkMain.generateRecords(samples, (topic, value) -> {
                acks.add(producer.send(new ProducerRecord<>(topic, 0, null, value)));
                if (acks.size() >= 10_000) {
                    BacklogProducer.awaitAcks(acks);
                }
            }, run -> { });
            producer.flush();
        }
        BacklogProducer.awaitAcks(acks);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2] + " (1, 5, 15 min)";
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
