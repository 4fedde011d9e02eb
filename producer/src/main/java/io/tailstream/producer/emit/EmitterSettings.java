package io.tailstream.producer.emit;

import java.time.Duration;

/**
 * How the emitter packs and paces blocks. Immutable; validated at construction.
 *
 * @param maxSamplesPerBlock a worker's block is handed over when it holds this many samples
 * @param maxBlockAge        a worker hands its block over at the first sample ending this long after the block's first;
 *                           a worker that wrote nothing for a sweep while its samples waited this long (stuck in a long
 *                           transaction) has them sealed by the emitter, so samples reach Kafka within about
 *                           {@code maxBlockAge + 2 × sweepInterval}
 * @param sweepInterval      how often the emitter looks for the samples of idle workers and sends the blocks handed
 *                           over since its last round (it sleeps between rounds)
 * @param heartbeatInterval  heartbeat blocks per active step at this interval (the contract asks for at most 250 ms)
 * @param maxBufferedBlocks  block buffers of the whole run (in workers, queued, being sealed): bounds memory; when
 *                           all are taken a worker waits for one (backpressure, counted) rather than drop samples
 * @param finishTimeout      how long the end of a step may wait for Kafka's acknowledgements
 */
public record EmitterSettings(
        int maxSamplesPerBlock,
        Duration maxBlockAge,
        Duration sweepInterval,
        Duration heartbeatInterval,
        int maxBufferedBlocks,
        Duration finishTimeout) {

    public EmitterSettings {
        if (maxSamplesPerBlock < 1 || maxSamplesPerBlock > io.tailstream.schemas.block.SampleBlock.MAX_SAMPLES) {
            throw new IllegalArgumentException("maxSamplesPerBlock must be in 1.."
                    + io.tailstream.schemas.block.SampleBlock.MAX_SAMPLES + ", was " + maxSamplesPerBlock);
        }
        positive("maxBlockAge", maxBlockAge);
        positive("sweepInterval", sweepInterval);
        positive("heartbeatInterval", heartbeatInterval);
        positive("finishTimeout", finishTimeout);
        if (heartbeatInterval.toMillis() > 250) {
            throw new IllegalArgumentException("heartbeatInterval must be at most 250 ms (the contract), was "
                    + heartbeatInterval.toMillis() + " ms");
        }
        if (maxBufferedBlocks < 2) {
            throw new IllegalArgumentException("maxBufferedBlocks must be >= 2, was " + maxBufferedBlocks);
        }
    }

    /** 1024 samples, 150 ms age (+25 ms sweep: under the contract's ~200 ms), 200 ms heartbeats, 4096 buffers. */
    public static EmitterSettings defaults() {
        return new EmitterSettings(1024, Duration.ofMillis(150), Duration.ofMillis(25), Duration.ofMillis(200), 4096,
                Duration.ofSeconds(120));
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, was " + d);
        }
    }
}
