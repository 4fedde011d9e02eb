package io.tailstream.schemas.histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * The one HdrHistogram configuration tailstream uses for latencies, and its compressed base64 form in window
 * stats. Values are microseconds; 3 significant digits (0.1% relative precision); the trackable range is one hour.
 * A latency beyond the range is recorded as the range's maximum and reported as clamped, never thrown away and
 * never an {@code ArrayIndexOutOfBoundsException}.
 */
public final class LatencyHistograms {

    /** Highest latency recorded as is: one hour, in µs. */
    public static final long HIGHEST_TRACKABLE_MICROS = 3_600_000_000L;
    /** Relative precision of every percentile: 10^-3. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private LatencyHistograms() {}

    /** A new empty latency histogram (µs). About 190 KB: pool and {@code reset()} rather than allocate per window. */
    public static Histogram create() {
        return new Histogram(1, HIGHEST_TRACKABLE_MICROS, SIGNIFICANT_DIGITS);
    }

    /**
     * Records one latency, clamping to the trackable range.
     *
     * @return true if the value was clamped (the caller counts those)
     */
    public static boolean record(Histogram h, long latencyMicros) {
        if (latencyMicros > HIGHEST_TRACKABLE_MICROS) {
            h.recordValue(HIGHEST_TRACKABLE_MICROS);
            return true;
        }
        h.recordValue(Math.max(0, latencyMicros));
        return false;
    }

    /** Compressed HdrHistogram encoding (the library's own), base64: what window stats carry. */
    public static String toBase64(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), len));
    }

    /**
     * Reads a histogram written by {@link #toBase64}.
     *
     * @throws IllegalArgumentException if the text is not a valid encoded histogram
     */
    public static Histogram fromBase64(String encoded) {
        return decode(encoded, Histogram::decodeFromCompressedByteBuffer);
    }

    /**
     * Reads a histogram written by {@link #toBase64} whose counts each fit an {@code int}, such as one window's, to
     * read rather than add to: several times faster to decode than {@link #fromBase64}, whose counts are
     * {@code long}s.
     *
     * @throws IllegalArgumentException if the text is not a valid encoded histogram
     */
    public static IntCountsHistogram fromBase64IntCounts(String encoded) {
        return decode(encoded, IntCountsHistogram::decodeFromCompressedByteBuffer);
    }

    /** One of HdrHistogram's {@code decodeFromCompressedByteBuffer}s. */
    private interface Decoder<H> {
        H decode(ByteBuffer buffer, long minBarForHighestTrackableValue) throws DataFormatException;
    }

    private static <H> H decode(String encoded, Decoder<H> decoder) {
        try {
            return decoder.decode(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not a valid compressed HdrHistogram: " + e.getMessage(), e);
        }
    }
}
