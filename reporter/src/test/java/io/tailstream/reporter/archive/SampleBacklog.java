package io.tailstream.reporter.archive;

import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A backlog of samples put on a broker as producers put it there: one run, one producer per samples partition,
 * each with two closed-loop steps of 8 workers interleaving their blocks of 1,024 samples (as a producer's emitter
 * seals them), encoded by the producer's {@link SampleBlockEncoder} and sent zstd level 1, acknowledged. Step 1 is
 * {@code oltp_point_select}-like (one op, ~400 µs), step 2 {@code oltp_read_write}-like (two ops, ~2-14 ms, 20
 * queries); log-normal latencies, 0.5 % deadlocks, 10 % of each step warm-up. Deterministic for a given size.
 */
final class SampleBacklog {

    static final String RUN = "backlog-run";
    static final long T0_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final int WORKERS = 8;

    /**
     * What landed on the topics.
     *
     * @param samplesPerBlock per producer, samples of each block sequence (markers: 0)
     * @param latencySumUs    Σ latency_us over every sample
     */
    record Sent(long samples, long sampleBlocks, Map<String, Map<Long, Integer>> samplesPerBlock,
                long latencySumUs) {}

    private SampleBacklog() {}

    /** Sends {@code total} samples split over {@code partitions} producers and waits for every acknowledgement. */
    static Sent produce(String bootstrap, long total, int partitions) throws Exception {
        List<Future<?>> acks = new ArrayList<>();
        Random rnd = new Random(1);
        Map<String, Map<Long, Integer>> perBlock = new TreeMap<>();
        long sampleBlocks = 0;
        long latencySum = 0;
        TargetInfo target = new TargetInfo("mysql", "jdbc:mysql://db1/sbtest", "MySQL", "8.4.3", Map.of(), 900.0,
                "USD", 1, null);
        try (KafkaProducer<byte[], byte[]> producer = BacklogProducer.create(bootstrap)) {
            for (int k = 0; k < partitions; k++) {
                String producerId = "producer-" + k;
                int partition = k;
                Map<Long, Integer> blocks = new TreeMap<>();
                perBlock.put(producerId, blocks);
                java.util.function.BiConsumer<String, byte[]> send = (topic, value) -> {
                    acks.add(producer.send(new ProducerRecord<>(topic, topic.equals(Topics.SAMPLES) ? partition : 0,
                            producerId.getBytes(), value)));
                    if (acks.size() >= 10_000) {
                        BacklogProducer.awaitAcks(acks);
                    }
                };
                send.accept(Topics.CONTROL, Json.write(new RunStarted(RUN, T0_MS, producerId, "backlog-plan",
                        List.of(target), Map.of(), RunSettings.NONE)));
                long producerTotal = total / partitions + (k < total % partitions ? 1 : 0);
                long seq = 0;
                long stepStartMs = T0_MS;
                long perStep = producerTotal / 2;
                for (int stepId = 1; stepId <= 2; stepId++) {
                    long stepSamples = stepId == 1 ? perStep : producerTotal - perStep;
                    boolean pointSelect = stepId == 1;
                    List<String> ops = pointSelect ? List.of("point_select") : List.of("read_write", "read_only");
                    long gapNs = pointSelect ? 50_000 : 700_000; // ~20,000 and ~1,400 transactions/s
                    long durationMs = stepSamples * gapNs / 1_000_000 + 1;
                    long warmupMs = durationMs / 10;
                    send.accept(Topics.CONTROL, Json.write(new StepStarted(RUN, stepStartMs, producerId, stepId,
                            target, pointSelect ? "oltp_point_select" : "oltp_read_write", WORKERS, 1, warmupMs,
                            durationMs - warmupMs, ops, pointSelect ? 1 : 20, Map.of("tables", "8"))));
                    SampleBlockEncoder[] workers = new SampleBlockEncoder[WORKERS];
                    for (int w = 0; w < WORKERS; w++) {
                        workers[w] = new SampleBlockEncoder(1024, false);
                    }
                    long startNs = stepStartMs * 1_000_000L;
                    long errors = 0;
                    long blocksAtStart = seq;
                    for (long i = 0; i < stepSamples; i++) {
                        startNs += gapNs / 2 + rnd.nextLong(gapNs); // arrivals jitter around the mean rate
                        long startUs = startNs / 1000;
                        int op = pointSelect ? 0 : rnd.nextInt(4) == 0 ? 1 : 0;
                        double median = pointSelect ? 400 : op == 0 ? 14_000 : 2_000;
                        long latency = 20 + (long) (median * Math.exp(rnd.nextGaussian() * 0.5));
                        latencySum += latency;
                        SampleStatus status = rnd.nextInt(200) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                        errors += status.isError() ? 1 : 0;
                        boolean warmup = startUs < (stepStartMs + warmupMs) * 1000;
                        SampleBlockEncoder enc = workers[(int) (i % WORKERS)];
                        enc.add(startUs, latency, startUs, op, status, pointSelect ? 1 : op == 0 ? 20 : 14, warmup);
                        if (enc.isFull() || i >= stepSamples - WORKERS) {
                            blocks.put(seq, enc.sampleCount());
                            send.accept(Topics.SAMPLES, enc.seal(RUN, producerId, seq++, stepId, startUs + latency,
                                    ops, 0));
                            sampleBlocks++;
                            enc.reset();
                        }
                    }
                    blocks.put(seq, 0);
                    send.accept(Topics.SAMPLES, SampleBlockEncoder.marker(RUN, producerId, seq++, stepId,
                            SampleBlock.FLAG_END_OF_STEP, startNs / 1000, ops));
                    send.accept(Topics.CONTROL, Json.write(new StepEnded(RUN, stepStartMs + durationMs, producerId,
                            stepId, stepSamples, seq - blocksAtStart, errors, "completed")));
                    stepStartMs += durationMs + 1000;
                }
                send.accept(Topics.CONTROL, Json.write(new RunEnded(RUN, stepStartMs, producerId, seq, producerTotal,
                        "completed")));
            }
            producer.flush();
        }
        BacklogProducer.awaitAcks(acks);
        return new Sent(total, sampleBlocks, perBlock, latencySum);
    }
}
