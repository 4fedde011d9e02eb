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
            long before = threads.getThreadAllocatedBytes(tid);
            write(writer, start + 1_000_000_000L, 1_000_000);
            long allocated = threads.getThreadAllocatedBytes(tid) - before;
            writer.flush();
            emission.finish();
            System.out.printf("worker thread allocated %,d bytes over 1,000,000 writes%n", allocated);
            // any per-sample object (16 bytes at least) would be >= 16,000,000 bytes here; what a worker may allocate
            // is a new block buffer (8 KiB) when the emitter thread lags behind this tight loop and the pool grows
            // (bounded by maxBufferedBlocks): under 2 bytes per sample on average
            assertThat(allocated).as("bytes allocated by 1,000,000 writes").isLessThan(2_000_000);
        }
    }

    private static void write(SampleWriter w, long start, int n) {
        for (int i = 0; i < n; i++) {
            long s = start + 100L * i;
            w.write(s, 150 + (i & 255), s, 0, SampleStatus.OK, 1, false);
        }
    }
}
