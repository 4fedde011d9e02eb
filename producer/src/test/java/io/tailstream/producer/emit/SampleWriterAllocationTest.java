package io.tailstream.producer.emit;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.SampleStatus;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The worker's side of the record-and-emit path allocates nothing per sample in steady state: the bytes this thread
 * allocates over a million {@link SampleWriter#write}s (with the real emitter thread sealing and recycling blocks)
 * stay far below one object per sample. JMH's {@code -prof gc} figure (benchmarks/SampleWriterBenchmark)
 * counts every thread, so it includes the emitter's per-block byte arrays; this test isolates the worker.
 */
class SampleWriterAllocationTest {

    @Test
    void write_steadyState_allocatesNothingOnTheWorkerThread() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported()) {
            Assumptions.abort("needs per-thread allocation counters (com.sun.management.ThreadMXBean)");
            return;
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        // keeps the blocks (about 18 MB here); it runs on the emitter thread, which this test does not measure
        ListTransport discard = new ListTransport(1);
        try (KafkaSampleSink sink = new KafkaSampleSink("alloc", "p1", discard, Clock.system(),
                EmitterSettings.defaults())) {
            StepEmission emission = sink.beginStep(1, List.of("op"), false);
            SampleWriter writer = emission.writer();
            long start = 1_700_000_000_000_000L;
            write(writer, start, 2_000_000); // warm up: JIT, encoder pool filled
            long tid = Thread.currentThread().getId();
            int encodersBefore = sink.encodersCreated();
            long before = threads.getThreadAllocatedBytes(tid);
            write(writer, start + 1_000_000_000L, 1_000_000);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            int grown = sink.encodersCreated() - encodersBefore;
            writer.flush();
            emission.finish();
            // When the emitter thread lags behind this tight loop (a loaded machine), the worker creates new block
            // buffers: pool growth, bounded by maxBufferedBlocks, not per-sample allocation. Each is one encoder
            // with its sample buffer (maxSamplesPerBlock x 8 bytes; these narrow samples never grow it); discount
            // them. At most ~980 blocks are filled in the measured loop, so the discount stays under 8.2 MB and a
            // per-sample object (>= 16 MB) still fails the test.
            long perEncoder = EmitterSettings.defaults().maxSamplesPerBlock() * 8L + 128;
            long perSample = allocated - grown * perEncoder;
            System.out.printf("worker thread allocated %,d bytes over 1,000,000 writes (%d block buffers created)%n",
                    allocated, grown);
            // any per-sample object (16 bytes at least) would be >= 16,000,000 bytes here
            assertThat(perSample).as("bytes allocated by 1,000,000 writes, block buffer creation excluded")
                    .isLessThan(1_000_000);
        }
    }

    private static void write(SampleWriter w, long start, int n) {
        for (int i = 0; i < n; i++) {
            long s = start + 100L * i;
            w.write(s, 150 + (i & 255), s, 0, SampleStatus.OK, 1, false);
        }
    }
}
