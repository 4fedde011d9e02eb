package io.tailstream.producer.emit;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how much to spool when the broker is away. Immutable; validated at construction.
 *
 * @param dir              directory of the spool file ({@code spool-<producerId>.bin}, deleted when the run ends)
 * @param limitBytes       most bytes the spool may hold at once; reaching it stops the run with a clear message
 * @param maxInflightBytes block bytes handed to Kafka and not yet acknowledged, above which new blocks go to the
 *                         spool instead: what bounds the producer's memory while the broker is slow or away
 * @param drainTimeout     how long the end of a step may wait for the spool to drain before failing
 */
public record SpoolSettings(Path dir, long limitBytes, long maxInflightBytes, Duration drainTimeout) {

    /** 1 GiB of spool, 16 MiB in flight, 10 minutes to drain. */
    public static final long DEFAULT_LIMIT_BYTES = 1L << 30;
    public static final long DEFAULT_MAX_INFLIGHT_BYTES = 16L << 20;
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofMinutes(10);

    public SpoolSettings {
        if (dir == null) {
            throw new IllegalArgumentException("spool dir must be set");
        }
        if (limitBytes < 1024) {
            throw new IllegalArgumentException("spool limit must be >= 1024 bytes, was " + limitBytes);
        }
        if (maxInflightBytes < 1024) {
            throw new IllegalArgumentException("spool maxInflightBytes must be >= 1024, was " + maxInflightBytes);
        }
        if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.isZero()) {
            throw new IllegalArgumentException("spool drainTimeout must be > 0, was " + drainTimeout);
        }
    }

    /** Default limits in {@code dir}. */
    public static SpoolSettings in(Path dir) {
        return new SpoolSettings(dir, DEFAULT_LIMIT_BYTES, DEFAULT_MAX_INFLIGHT_BYTES, DEFAULT_DRAIN_TIMEOUT);
    }

    /** The same with another spool limit. */
    public SpoolSettings withLimitBytes(long bytes) {
        return new SpoolSettings(dir, bytes, maxInflightBytes, drainTimeout);
    }
}
