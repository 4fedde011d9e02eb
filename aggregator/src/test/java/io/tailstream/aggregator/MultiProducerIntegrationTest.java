package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three producers of one step against the real in-process broker and the aggregator (exactly_once_v2), each through
 * the producer module's emission API ({@link KafkaSampleSink}, one sink and producer id each, as several
 * {@code tailstream run} processes with the same run id would): 1, 2 and 3 worker threads, started 0, 0.4 and 0.8 s
 * apart, measuring for 1.5, 2.3 and 3.1 s. The merged windows count every sample the producers sent, and the step's
 * one summary is the exact union: measured count, errors, statements, TPS over the producers' span, threads 6, each
 * producer's sent counts.
 */
class MultiProducerIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(MultiProducerIntegrationTest.class);
    private static final List<String> OPS = List.of("read", "write");
    private static final String RUN = "it-multi";
    private static final int STEP = 1;
    private static final long WARMUP_US = 300_000;

    @TempDir
    Path stateDir;

    @Test
    void threeProducers_oneStep_windowsAndSummaryAreTheUnionOfWhatEachSent() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(3));
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-multi-aggregator");
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, stateDir)) {
                assertThat(aggregator.awaitRunning(Duration.ofSeconds(30))).isTrue();
                ExecutorService pool = Executors.newCachedThreadPool();
                List<Future<Produced>> runs = new ArrayList<>();
                long t0 = System.currentTimeMillis() * 1000 + 200_000;
                for (int i = 0; i < 3; i++) {
                    int index = i;
                    runs.add(pool.submit(() -> produce(kafka.bootstrapServers(), "gen-" + index, index + 1,
                            t0 + index * 400_000L, 1_500_000L + index * 800_000L, 31 + index)));
                }
                List<Produced> produced = new ArrayList<>();
                for (Future<Produced> f : runs) {
                    produced.add(f.get(60, TimeUnit.SECONDS));
                }
                pool.shutdown();

                StepSummary summary = null;
                int summaryRecords = 0;
                List<WindowStats> windows = new ArrayList<>();
                Properties p = new Properties();
                p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
                p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
                try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                        new ByteArrayDeserializer())) {
                    List<TopicPartition> parts = new ArrayList<>();
                    consumer.partitionsFor(Topics.WINDOWS).forEach(i -> parts.add(new TopicPartition(i.topic(),
                            i.partition())));
                    consumer.partitionsFor(Topics.SUMMARIES).forEach(i -> parts.add(new TopicPartition(i.topic(),
                            i.partition())));
                    consumer.assign(parts);
                    consumer.seekToBeginning(parts);
                    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                    while (System.nanoTime() < deadline && (summary == null || !summary.complete())) {
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            if (r.topic().equals(Topics.WINDOWS)) {
                                addBaseWindow(windows, r);
                            } else {
                                StepSummary s = Json.read(r.value(), StepSummary.class);
                                if (s.runId().equals(RUN) && s.op().equals(WindowStats.ALL_OPS)) {
                                    summary = s;
                                    summaryRecords++;
                                }
                            }
                        }
                        assertThat(aggregator.failure()).isEmpty();
                    }
                    // the step's windows were committed before its summary (stage 3 reads them from stage 2's
                    // output): read the windows topic up to its end as it is now
                    List<TopicPartition> windowParts = parts.stream().filter(tp -> tp.topic().equals(Topics.WINDOWS))
                            .toList();
                    Map<TopicPartition, Long> end = consumer.endOffsets(windowParts);
                    while (System.nanoTime() < deadline
                            && windowParts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            if (r.topic().equals(Topics.WINDOWS)) {
                                addBaseWindow(windows, r);
                            }
                        }
                    }
                }
                assertThat(summary).as("the step's summary within 90 s").isNotNull();

                List<Sample> all = new ArrayList<>();
                produced.forEach(x -> all.addAll(x.samples()));
                long sent = produced.stream().mapToLong(x -> x.counts().samplesSent()).sum();
                assertThat(sent).isEqualTo(all.size());
                Map<String, Long> counted = new TreeMap<>();
                windows.forEach(w -> counted.merge(w.op(), w.count(), Long::sum));
                LOG.info("{} samples sent by 3 producers; windows counted {}; summary count {}, late {}", sent,
                        counted, summary.count(), summary.lateCount());
                assertThat(counted.get(WindowStats.ALL_OPS)).as("merged windows").isEqualTo(sent);
                assertThat(counted.get("read") + counted.get("write")).isEqualTo(sent);

                assertThat(summaryRecords).as("published once, complete").isEqualTo(1);
                assertThat(summary.complete()).isTrue();
                assertThat(summary.missingBlocks()).isZero();
                assertThat(summary.missingProducers()).isEmpty();
                assertThat(summary.threads()).isEqualTo(1 + 2 + 3);
                assertThat(summary.producers()).hasSize(3);
                for (int i = 0; i < 3; i++) {
                    StepSummary.ProducerPart part = summary.producers().get(i);
                    Produced x = produced.get(i);
                    assertThat(part.producerId()).isEqualTo("gen-" + i);
                    assertThat(part.threads()).isEqualTo(i + 1);
                    assertThat(part.samplesSent()).isEqualTo(x.counts().samplesSent()).isEqualTo(x.samples().size());
                    assertThat(part.blocksSent()).isEqualTo(x.counts().blocksSent());
                }
                List<Sample> measured = all.stream().filter(x -> !x.warmup()).toList();
                long ok = measured.stream().filter(x -> x.status() == SampleStatus.OK).count();
                long startUs = produced.stream().mapToLong(Produced::measureStartUs).min().orElseThrow();
                long endUs = produced.stream().mapToLong(Produced::measureEndUs).max().orElseThrow();
                double seconds = (endUs - startUs) / 1e6;
                assertThat(summary.count()).isEqualTo(measured.size());
                assertThat(summary.errors()).isEqualTo(measured.size() - ok);
                assertThat(summary.queries()).isEqualTo(measured.stream().mapToLong(Sample::queries).sum());
                assertThat(summary.okQueries()).isEqualTo(measured.stream().mapToLong(Sample::succeededStatements)
                        .sum());
                assertThat(summary.measuredSeconds()).isEqualTo(seconds);
                assertThat(summary.tps()).isCloseTo(ok / seconds, within(1e-9 * ok / seconds));
            }
        }
    }

    /** Keeps the run's base windows (roll-ups are merges of them). */
    private static void addBaseWindow(List<WindowStats> windows, ConsumerRecord<String, byte[]> r) {
        WindowStats w = Json.read(r.value(), WindowStats.class);
        if (w.runId().equals(RUN) && w.windowEndEpochMs() - w.windowStartEpochMs() == 1000) {
            windows.add(w);
        }
    }

    /** What one producer sent. */
    private record Produced(List<Sample> samples, StepEmission.StepCounts counts, long measureStartUs,
                            long measureEndUs) {}

    /**
     * One producer: {@code threads} workers each write a sample every 2 ms (a synthetic transaction of 100-2,100 µs
     * that just completed) from {@code startUs} for {@code WARMUP_US} + {@code measureUs}, then the step ends as the
     * producer's driver ends it: writers flushed, emission finished, {@code StepEnded} with the acknowledged counts.
     */
    private static Produced produce(String bootstrap, String producerId, int threads, long startUs, long measureUs,
                                    long seed) throws Exception {
        try (KafkaSampleSink sink = KafkaSampleSink.create(bootstrap, RUN, producerId, Map.of(),
                EmitterSettings.defaults())) {
            waitUntil(startUs);
            sink.publish(new StepStarted(RUN, startUs / 1000, producerId, STEP, null, "synthetic", threads, 1,
                    WARMUP_US / 1000, measureUs / 1000, OPS, 2, Map.of()));
            StepEmission emission = sink.beginStep(STEP, OPS, false);
            long measureStartUs = startUs + WARMUP_US;
            long endUs = measureStartUs + measureUs;
            List<List<Sample>> perWorker = new ArrayList<>();
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                List<Sample> mine = new ArrayList<>();
                perWorker.add(mine);
                SplittableRandom random = new SplittableRandom(seed * 100 + w);
                SampleWriter writer = emission.writer();
                Thread t = new Thread(() -> {
                    long now;
                    while ((now = System.currentTimeMillis() * 1000) < endUs) {
                        long latency = 100 + random.nextInt(2_000);
                        long start = now - latency;
                        int op = random.nextInt(2);
                        SampleStatus status = random.nextInt(40) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                        boolean warmup = start < measureStartUs;
                        writer.write(start, latency, start, op, status, op == 0 ? 1 : 3, warmup);
                        mine.add(new Sample(start, latency, start, op, status, op == 0 ? 1 : 3, warmup));
                        LockSupport.parkNanos(2_000_000); // pacing: a controlled load, not a wait
                    }
                    writer.flush();
                }, producerId + "-worker-" + w);
                workers.add(t);
                t.start();
            }
            for (Thread t : workers) {
                t.join();
            }
            StepEmission.StepCounts counts = emission.finish();
            List<Sample> samples = new ArrayList<>();
            perWorker.forEach(samples::addAll);
            long lastEnd = samples.stream().mapToLong(Sample::endEpochMicros).max().orElse(endUs);
            long measureEndUs = Math.max(endUs, lastEnd);
            long errors = samples.stream().filter(x -> x.status().isError()).count();
            sink.publish(new StepEnded(RUN, System.currentTimeMillis(), producerId, STEP, counts.samplesSent(),
                    counts.blocksSent(), errors, StepEnded.COMPLETED, false, 0L, 0L, 0L, startUs, measureStartUs,
                    measureEndUs, threads, 0L, null, null));
            return new Produced(samples, counts, measureStartUs, measureEndUs);
        }
    }

    private static void waitUntil(long epochMicros) {
        long ms;
        while ((ms = epochMicros / 1000 - System.currentTimeMillis()) > 0) {
            LockSupport.parkNanos(ms * 1_000_000); // a start time in the plan, not synchronization
        }
    }
}
