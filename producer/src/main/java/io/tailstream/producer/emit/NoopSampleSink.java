package io.tailstream.producer.emit;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import java.util.List;

/** Discards samples and events: the driver's cost without emission. Thread safe. */
final class NoopSampleSink implements SampleSink {

    private static final SampleWriter WRITER = new SampleWriter() {
        @Override
        public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                          SampleStatus status, int queries, boolean warmup) {
            // emission off
        }

        @Override
        public void flush() {
            // nothing buffered
        }
    };

    private final String producerId;

    NoopSampleSink(String producerId) {
        this.producerId = producerId;
    }

    @Override
    public String producerId() {
        return producerId;
    }

    @Override
    public void publish(ControlEvent event) {
        // emission off
    }

    @Override
    public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
        return new StepEmission() {
            @Override
            public SampleWriter writer() {
                return WRITER;
            }

            @Override
            public StepCounts finish() {
                return new StepCounts(0, 0, 0);
            }
        };
    }

    @Override
    public long blocksSent() {
        return 0;
    }

    @Override
    public long samplesSent() {
        return 0;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
