package io.tailstream.producer.driver;

import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import java.util.ArrayList;
import java.util.List;

/** Keeps every sample a step writes, as objects (tests only). Thread safe. */
final class RecordingEmission implements StepEmission {

    private final List<Sample> samples = new ArrayList<>();

    @Override
    public SampleWriter writer() {
        return new SampleWriter() {
            @Override
            public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                              SampleStatus status, int queries, boolean warmup) {
                synchronized (samples) {
                    samples.add(new Sample(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status,
                            queries, warmup));
                }
            }

            @Override
            public void flush() {
                // nothing buffered
            }
        };
    }

    @Override
    public StepCounts finish() {
        synchronized (samples) {
            return new StepCounts(samples.size(), 0, 0);
        }
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }
}
