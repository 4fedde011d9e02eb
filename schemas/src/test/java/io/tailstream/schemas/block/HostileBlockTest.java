package io.tailstream.schemas.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Every malformed block is rejected with a {@link CorruptBlockException} that says why, and nothing is allocated
 * from a length field read off the wire. Blocks with a valid checksum but lying fields are built with
 * {@link #withValidCrc} so the structural checks are exercised, not only the checksum.
 */
class HostileBlockTest {

    private static final SampleVisitor IGNORE = (s, l, i, o, st, q, w) -> { };

    @Test
    void everyTruncation_isRejected() {
        byte[] block = GoldenBlocks.closedLoop();
        for (int len = 0; len < block.length; len++) {
            byte[] cut = Arrays.copyOf(block, len);
            assertThat(catchThrowable(() -> SampleBlockDecoder.decode(cut, IGNORE)))
                    .as("truncated to %d bytes", len).isInstanceOf(CorruptBlockException.class);
        }
    }

    @Test
    void everySingleBitFlip_isRejected() {
        byte[] block = GoldenBlocks.closedLoop();
        for (int i = 0; i < block.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = block.clone();
                flipped[i] ^= (byte) (1 << bit);
                assertThat(catchThrowable(() -> SampleBlockDecoder.decode(flipped, IGNORE)))
                        .as("bit %d of byte %d", bit, i).isInstanceOf(CorruptBlockException.class);
            }
        }
    }

    @Test
    void unknownVersion_isRejectedWithTheVersionInTheMessage() {
        byte[] block = GoldenBlocks.closedLoop();
        block[2] = 2;
        assertThatThrownBy(() -> SampleBlockDecoder.decode(withValidCrc(block), IGNORE))
                .isInstanceOf(CorruptBlockException.class)
                .hasMessageContaining("unsupported block version 2");
    }

    @Test
    void badMagic_isRejected() {
        byte[] block = GoldenBlocks.closedLoop();
        block[0] = '{';
        assertThatThrownBy(() -> SampleBlockDecoder.decode(block, IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("bad magic");
    }

    @Test
    void sampleCountThatLies_isRejectedBeforeAnyAllocation() {
        // a valid header claiming a million samples, followed by 8 bytes
        byte[] lying = header(1_000_000, new byte[8]);
        Throwable t = catchThrowable(() -> SampleBlockDecoder.decode(lying, IGNORE));
        assertThat(t).isInstanceOf(CorruptBlockException.class).hasMessageContaining("cannot fit");
        assertThat(allocationWhileRejecting(lying)).as("bytes allocated while rejecting").isLessThan(16 * 1024);
    }

    @Test
    void sampleCountAboveTheLimit_isRejected() {
        byte[] lying = header(SampleBlock.MAX_SAMPLES + 1, new byte[8]);
        assertThatThrownBy(() -> SampleBlockDecoder.decode(lying, IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("exceeds the limit");
    }

    @Test
    void stringLengthThatLies_isRejectedBeforeAnyAllocation() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write('T');
        b.write('S');
        b.write(1);
        b.write(0);
        varint(b, 2_000_000_000L); // runId length
        b.writeBytes(new byte[16]);
        byte[] block = finish(b);
        Throwable t = catchThrowable(() -> SampleBlockDecoder.decode(block, IGNORE));
        assertThat(t).isInstanceOf(CorruptBlockException.class).hasMessageContaining("runId length");
        assertThat(allocationWhileRejecting(block)).as("bytes allocated while rejecting").isLessThan(16 * 1024);
    }

    @Test
    void opIndexBeyondTheOpTable_isRejected() {
        byte[] block = header(1, oneSample(5L << 5).toByteArray()); // op 5 of 1
        assertThatThrownBy(() -> SampleBlockDecoder.decode(block, IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("names op 5");
    }

    @Test
    void unknownStatusCode_isRejected() {
        ByteArrayOutputStream samples = oneSample(14L << 1); // status 14 is not defined
        assertThatThrownBy(() -> SampleBlockDecoder.decode(header(1, samples.toByteArray()), IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("status code 14");
    }

    @Test
    void trailingBytes_areRejected() {
        ByteArrayOutputStream samples = oneSample(0);
        samples.writeBytes(new byte[] {1, 2, 3});
        assertThatThrownBy(() -> SampleBlockDecoder.decode(header(1, samples.toByteArray()), IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("unexpected bytes");
    }

    @Test
    void overlongVarint_isRejected() {
        ByteArrayOutputStream samples = new ByteArrayOutputStream();
        samples.writeBytes(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1});
        assertThatThrownBy(() -> SampleBlockDecoder.decode(header(1, samples.toByteArray()), IGNORE))
                .isInstanceOf(CorruptBlockException.class).hasMessageContaining("varint longer than 10 bytes");
    }

    @Test
    void randomGarbage_onlyEverThrowsCorruptBlockException() {
        SplittableRandom rnd = new SplittableRandom(1);
        byte[] valid = GoldenBlocks.closedLoop();
        for (int i = 0; i < 20_000; i++) {
            byte[] junk;
            if (i % 2 == 0) {
                junk = new byte[rnd.nextInt(200)];
                rnd.nextBytes(junk);
                if (junk.length > 3) {
                    junk[0] = 'T';
                    junk[1] = 'S';
                    junk[2] = 1;
                }
            } else {
                // a valid block with random bytes overwritten, then re-checksummed: only structure can catch it
                junk = valid.clone();
                for (int k = 0; k < 1 + rnd.nextInt(4); k++) {
                    junk[3 + rnd.nextInt(junk.length - 7)] = (byte) rnd.nextInt(256);
                }
                junk = withValidCrc(junk);
            }
            byte[] input = junk;
            Throwable t = catchThrowable(() -> SampleBlockDecoder.decode(input, IGNORE));
            if (t != null) {
                assertThat(t).as("input %d", i).isInstanceOf(CorruptBlockException.class);
            }
        }
    }

    /** One sample: start delta 0, latency 10 µs, the given {@code op << 5 | status << 1 | warmup}, one query. */
    private static ByteArrayOutputStream oneSample(long opStatusWarmup) {
        ByteArrayOutputStream samples = new ByteArrayOutputStream();
        varint(samples, 0); // start delta
        varint(samples, 10); // latency
        varint(samples, opStatusWarmup);
        varint(samples, 1); // queries
        return samples;
    }

    /** A header for run "r", producer "p", one op "op", the given count, then the raw sample bytes. */
    private static byte[] header(long sampleCount, byte[] sampleBytes) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write('T');
        b.write('S');
        b.write(1);
        b.write(0);
        string(b, "r");
        string(b, "p");
        varint(b, 0); // blockSeq
        varint(b, 1); // stepId
        varint(b, 1_000); // sealedAt
        varint(b, 1); // one op
        string(b, "op");
        varint(b, sampleCount);
        varint(b, 1_000); // base start
        b.writeBytes(sampleBytes);
        return finish(b);
    }

    private static byte[] finish(ByteArrayOutputStream b) {
        b.writeBytes(new byte[4]);
        return withValidCrc(b.toByteArray());
    }

    static byte[] withValidCrc(byte[] block) {
        byte[] out = block.clone();
        int end = out.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(out, 0, end);
        int c = (int) crc.getValue();
        out[end] = (byte) (c >>> 24);
        out[end + 1] = (byte) (c >>> 16);
        out[end + 2] = (byte) (c >>> 8);
        out[end + 3] = (byte) c;
        return out;
    }

    private static void string(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        varint(b, bytes.length);
        b.writeBytes(bytes);
    }

    private static void varint(ByteArrayOutputStream b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.write((int) v);
    }

    /**
     * Bytes the current thread allocates while the block is rejected, measured on a second attempt so class
     * loading and first-call costs do not count. Trusting a lying length would allocate megabytes.
     */
    private static long allocationWhileRejecting(byte[] block) {
        catchThrowable(() -> SampleBlockDecoder.decode(block, IGNORE));
        long before = allocatedBytes();
        catchThrowable(() -> SampleBlockDecoder.decode(block, IGNORE));
        return allocatedBytes() - before;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
