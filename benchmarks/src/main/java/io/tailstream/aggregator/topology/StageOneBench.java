package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.benchmarks.CpuSnapshot;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Stage 1 alone, on one thread, without Kafka: decode blocks into the {@link PartialCombiner} and flush it every 100
 * blocks (100 ms of event time at 1,000,000 samples per second, the default commit interval), as
 * {@code BlockDecodeProcessor} does. Prints the thread's CPU time per sample (median of the rounds), which the
 * machine's other load inflates far less than the end-to-end benchmark's wall-clock rate. Workloads: every sample
 * successful and measured (the hot path), 1 % failed, and every sample warm-up.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.aggregator.topology.StageOneBench 20000000
 * </pre>
 * Results are recorded in {@code docs/benchmarks.md}.
 */
public final class StageOneBench {

    private static final List<String> OPS = List.of("read", "write");
    private static final int PER_BLOCK = 1024;
    private static final int BLOCKS_PER_FLUSH = 100;
    private static final int ROUNDS = 7;

    private StageOneBench() {}

    public static void main(String[] args) {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
        for (String workload : List.of("ok", "failed1pct", "warmup")) {
            List<byte[]> blocks = blocks(samples, workload);
            long n = (long) blocks.size() * PER_BLOCK;
            run(blocks); // JIT warm-up
            double[] nsPerSample = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                nsPerSample[r] = run(blocks) / (double) n;
            }
            Arrays.sort(nsPerSample);
            System.out.printf("stage 1, %s: %,d samples x %d rounds: CPU per sample median %.1f ns (min %.1f, max %.1f)%n",
                    workload, n, ROUNDS, nsPerSample[ROUNDS / 2], nsPerSample[0], nsPerSample[ROUNDS - 1]);
        }
    }

    /** CPU nanoseconds of this thread to decode, combine and flush every block. */
    private static long run(List<byte[]> blocks) {
        PartialCombiner combiner = new PartialCombiner(1000, AggregatorTopology.MAX_COMBINED_PARTIALS);
        long[] partials = new long[1];
        long start = CpuSnapshot.currentThreadCpuNanos();
        int sinceFlush = 0;
        for (byte[] block : blocks) {
            BlockHeader header = SampleBlockDecoder.decode(block, combiner.stage());
            combiner.addStaged(header);
            if (++sinceFlush == BLOCKS_PER_FLUSH || combiner.full()) {
                combiner.flush((window, partial) -> partials[0] += partial.count());
                sinceFlush = 0;
            }
        }
        combiner.flush((window, partial) -> partials[0] += partial.count());
        long cpu = CpuSnapshot.currentThreadCpuNanos() - start;
        if (partials[0] != 2L * blocks.size() * PER_BLOCK) { // each sample in its op's and the "*" partial
            throw new IllegalStateException("combined " + partials[0] + " samples, expected "
                    + 2L * blocks.size() * PER_BLOCK);
        }
        return cpu;
    }

    /** Blocks of 1,024 samples, 1,000,000 samples per second of event time, latencies log-uniform 50 µs..200 ms. */
    private static List<byte[]> blocks(long samples, String workload) {
        TestProducer producer = new TestProducer("bench", "p1");
        Random random = new Random(1);
        long microsPerBlock = PER_BLOCK;
        long base = 1_700_000_000_000_000L;
        List<byte[]> out = new ArrayList<>();
        List<Sample> batch = new ArrayList<>(PER_BLOCK);
        for (long b = 0; b < samples / PER_BLOCK; b++) {
            long blockEnd = base + (b + 1) * microsPerBlock;
            batch.clear();
            for (int i = 0; i < PER_BLOCK; i++) {
                long end = blockEnd - random.nextInt((int) microsPerBlock);
                long latency = (long) Math.exp(Math.log(50) + random.nextDouble() * (Math.log(200_000) - Math.log(50)));
                int op = random.nextInt(2);
                SampleStatus status = workload.equals("failed1pct") && random.nextInt(100) == 0
                        ? SampleStatus.DEADLOCK : SampleStatus.OK;
                batch.add(new Sample(end - latency, latency, end - latency, op, status, op + 1,
                        workload.equals("warmup")));
            }
            out.add(producer.samples(1, OPS, batch, blockEnd));
        }
        return out;
    }
}
