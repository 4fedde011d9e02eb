package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleBlockDecoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --bootstrap-servers} starts while no broker listens there: the run spools, the broker comes up, the
 * topics are created then, the spool drains, every block sequence arrives once, and the console says how long the
 * run spooled.
 */
class RunKafkaAwayAtStartIntegrationTest {

    private static final Pattern SENT = Pattern.compile("run away-1: ([\\d,]+) samples in ([\\d,]+) blocks sent");
    private static final Pattern SPOOLED = Pattern.compile("spooling for (\\d+\\.\\d) s in all");

    @TempDir
    Path dir;

    @Test
    void noBrokerAtStart_runSpoolsThenDrains_everySequenceOnce() throws Exception {
        int[] ports = freePorts();
        String bootstrap = "127.0.0.1:" + ports[0];
        Path spoolDir = dir.resolve("spool");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        EmbeddedKafka kafka = null;
        int exit;
        List<Long> sequences;
        try {
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Cli.commandLine().execute("run",
                    "--bootstrap-servers", bootstrap, "--workload", "oltp_point_select", "--threads", "1",
                    "--warmup", "0s", "--duration", "20s", "--run-id", "away-1", "--spool-dir", spoolDir.toString()));
            // the broker comes up once blocks are spooled
            await(() -> spooledBytes(spoolDir) > 64 * 1024 || run.isDone(), 90);
            assertThat(run).as("the run ended before anything was spooled").isNotDone();
            kafka = EmbeddedKafka.start(dir.resolve("kafka"), true, ports[0], ports[1]);
            exit = run.get(180, TimeUnit.SECONDS);
            sequences = readSequences(kafka.bootstrapServers());
        } finally {
            System.setOut(stdout);
            if (kafka != null) {
                kafka.close();
            }
        }
        String output = printed.toString(StandardCharsets.UTF_8);
        stdout.print(output);
        assertThat(exit).isZero();
        assertThat(output).contains("Kafka at " + bootstrap + " does not answer: the run starts anyway and spools");
        Matcher sent = SENT.matcher(output);
        assertThat(sent.find()).as(output).isTrue();
        long samples = Long.parseLong(sent.group(1).replace(",", ""));
        long blocks = Long.parseLong(sent.group(2).replace(",", ""));
        Matcher spooled = SPOOLED.matcher(output);
        assertThat(spooled.find()).as(output).isTrue();
        assertThat(Double.parseDouble(spooled.group(1))).isPositive();
        assertThat(blocks).isPositive();
        assertThat(sequences).containsExactlyElementsOf(LongStream.range(0, blocks).boxed().toList());
        assertThat(samplesOnTopic).isEqualTo(samples);
        assertThat(spoolDir.resolve("spool-" + io.tailstream.producer.KafkaEmission.defaultProducerId() + ".bin"))
                .as("drained and deleted").doesNotExist();
    }

    long samplesOnTopic;

    /** Block sequences on the samples topic, sorted, duplicates kept; their samples summed into samplesOnTopic. */
    private List<Long> readSequences(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        List<Long> sequences = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.SAMPLES).stream()
                    .map(pi -> new TopicPartition(Topics.SAMPLES, pi.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                assertThat(System.nanoTime()).as("samples topic read within 60 s").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    BlockHeader h = SampleBlockDecoder.readHeader(r.value());
                    sequences.add(h.blockSeq());
                    samplesOnTopic += h.sampleCount();
                }
            }
        }
        sequences.sort(null);
        return sequences;
    }

    private static long spooledBytes(Path spoolDir) {
        if (!Files.isDirectory(spoolDir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(spoolDir)) {
            return files.filter(f -> !f.getFileName().toString().endsWith("-control.bin")).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0; // deleted meanwhile
                }
            }).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition met within " + seconds + " s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** Two distinct free ports, taken while both sockets are open. */
    private static int[] freePorts() throws IOException {
        try (ServerSocket a = new ServerSocket(); ServerSocket b = new ServerSocket()) {
            a.bind(new InetSocketAddress("127.0.0.1", 0));
            b.bind(new InetSocketAddress("127.0.0.1", 0));
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        }
    }
}
