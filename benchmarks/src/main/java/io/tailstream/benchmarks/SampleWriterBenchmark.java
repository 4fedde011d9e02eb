package io.tailstream.benchmarks;

import io.tailstream.producer.emit.BlockTransport;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.SampleStatus;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The record-and-emit path of one worker: {@link SampleWriter#write} per sample, with the real {@link
 * KafkaSampleSink} emitter thread sealing full and aged blocks, handing encoders back and sending each block to a
 * transport that acknowledges at once (Kafka's own cost is left out: it runs on the emitter's and the client's
 * threads, never on a worker's). One benchmark op = one sample; the budget is 100 ns per sample amortized, with no
 * per-sample allocation ({@code gc.alloc.rate.norm} is the per-block {@code byte[]} the transport receives, spread
 * over the block's samples).
 *
 * <p>Run (from the repository root; about 1 minute):
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar SampleWriterBenchmark -prof gc
 * java -jar benchmarks/target/benchmarks.jar SampleWriterBenchmark -t 2 -prof gc   # two workers at once
 * </pre>
 * The normal build only compiles this module; nothing here runs in {@code verify}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SampleWriterBenchmark {

    /** One sink per benchmark run, shared by every benchmark thread, like one producer's workers. */
    @State(Scope.Benchmark)
    public static class Sink {
        /**
         * Samples per block. Allocation per sample falls in proportion to it when only the per-block buffers
         * allocate: the proof that {@code write} itself allocates nothing.
         */
        @Param({"1024", "8192"})
        int samplesPerBlock;

        final DiscardingTransport transport = new DiscardingTransport();
        SampleSink sink;
        StepEmission emission;

        @Setup(Level.Trial)
        public void open() {
            EmitterSettings d = EmitterSettings.defaults();
            sink = new KafkaSampleSink("bench-run", "bench-producer", transport, Clock.system(),
                    new EmitterSettings(samplesPerBlock, d.maxBlockAge(), d.sweepInterval(), d.heartbeatInterval(),
                            d.maxBufferedBlocks(), d.finishTimeout()));
            emission = sink.beginStep(1, List.of("oltp_point_select"), false);
        }

        @TearDown(Level.Trial)
        public void close() {
            emission.finish();
            sink.close();
        }
    }

    private SampleWriter writer;
    private long startMicros;
    private int i;

    @Setup(Level.Trial)
    public void writer(Sink sink) {
        writer = sink.emission.writer();
        startMicros = System.currentTimeMillis() * 1000;
    }

    @TearDown(Level.Trial)
    public void flush() {
        writer.flush();
    }

    /** One sample: start advancing ~100 µs, latency varying over a few hundred µs like a point select's. */
    @Benchmark
    public void write() {
        int n = i++;
        long latency = 150 + (n & 255);
        startMicros += 100 + (n & 7);
        writer.write(startMicros, latency, startMicros, 0, SampleStatus.OK, 1, false);
    }

    /** Acknowledges every block at once and counts what it saw. Thread safe. */
    static final class DiscardingTransport implements BlockTransport {
        final LongAdder blocks = new LongAdder();
        final LongAdder bytes = new LongAdder();

        @Override
        public int samplePartitions() {
            return 1;
        }

        @Override
        public void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
            blocks.increment();
            bytes.add(block.length);
            ack.done(null);
        }

        @Override
        public void sendControl(byte[] key, byte[] json) {
            // control events are not part of the measured path
        }

        @Override
        public void flush() {
            // acknowledged synchronously
        }

        @Override
        public void close() {
            // nothing to release
        }
    }
}
