package io.tailstream.benchmarks;

import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A sink whose emission can be switched off and on while a step runs. Its writers count every transaction, emitting
 * or not; control events and step boundaries always go to the real sink. Thread safe: each worker writes through its
 * own writer, and the benchmark's thread switches {@link #emitting} and reads the counts.
 */
final class SwitchableSink implements SampleSink {

    private final SampleSink delegate;
    private final CopyOnWriteArrayList<CountingWriter> writers = new CopyOnWriteArrayList<>();
    volatile boolean emitting = true;

    SwitchableSink(SampleSink delegate) {
        this.delegate = delegate;
    }

    /** Transactions completed so far by every worker. */
    long transactions() {
        long sum = 0;
        for (CountingWriter w : writers) {
            sum += w.count();
        }
        return sum;
    }

    void awaitFirstTransaction(CompletableFuture<?> run) {
        while (transactions() == 0) {
            if (run.isDone()) {
                run.join(); // throws the run's failure
                throw new IllegalStateException("the step ended before its first transaction");
            }
            LockSupport.parkNanos(10_000_000);
        }
    }

    @Override
    public String producerId() {
        return delegate.producerId();
    }

    @Override
    public void publish(ControlEvent event) {
        delegate.publish(event);
    }

    @Override
    public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
        StepEmission step = delegate.beginStep(stepId, ops, openLoop);
        return new StepEmission() {
            @Override
            public SampleWriter writer() {
                CountingWriter w = new CountingWriter(step.writer(), SwitchableSink.this);
                writers.add(w);
                return w;
            }

            @Override
            public StepCounts finish() {
                return step.finish();
            }
        };
    }

    @Override
    public long blocksSent() {
        return delegate.blocksSent();
    }

    @Override
    public long samplesSent() {
        return delegate.samplesSent();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** One worker's writer: counts the transaction, then emits it if emission is on. */
    private static final class CountingWriter implements SampleWriter {
        private static final VarHandle COUNT;

        static {
            try {
                COUNT = MethodHandles.lookup().findVarHandle(CountingWriter.class, "count", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final SampleWriter delegate;
        private final SwitchableSink sink;
        @SuppressWarnings("unused") // through COUNT
        private long count;

        CountingWriter(SampleWriter delegate, SwitchableSink sink) {
            this.delegate = delegate;
            this.sink = sink;
        }

        long count() {
            return (long) COUNT.getOpaque(this);
        }

        @Override
        public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                          SampleStatus status, int queries, boolean warmup) {
            // single writer: the worker thread; the benchmark's thread reads it
            COUNT.setOpaque(this, (long) COUNT.getOpaque(this) + 1);
            if (sink.emitting) {
                delegate.write(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries,
                        warmup);
            }
        }

        @Override
        public void flush() {
            delegate.flush();
        }
    }
}
