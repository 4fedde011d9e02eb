package io.tailstream.reporter.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The run-by-run hybrid encoder read back by parquet-java's decoder, and never larger than its encoder's output. */
class RleHybridEncoderTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 7, 8, 9, 13, 17, 24, 31, 32})
    void encode_runsOfEveryLengthAroundEight_decodeToTheSameValues(int bitWidth) throws IOException {
        Random random = new Random(bitWidth);
        RleHybridEncoder encoder = new RleHybridEncoder();
        for (int trial = 0; trial < 300; trial++) {
            int[] values = new int[random.nextInt(2_000)];
            long max = bitWidth == 32 ? 0xFFFFFFFFL : (1L << bitWidth) - 1;
            int n = 0;
            while (n < values.length) {
                // runs of 1..20 most often (the edges of the 8-value groups), sometimes hundreds
                int run = random.nextInt(10) == 0 ? random.nextInt(500) : 1 + random.nextInt(20);
                int v = (int) (max == 0 ? 0 : random.nextLong() & max);
                for (int r = 0; r < run && n < values.length; r++) {
                    values[n++] = v;
                }
            }
            byte[] header = {42};
            byte[] encoded = encoder.encode(values, values.length, bitWidth, header, trial % 2 == 0);
            assertThat(encoded[0]).isEqualTo((byte) 42);
            int offset = 1;
            if (trial % 2 == 0) {
                int length = (encoded[1] & 0xFF) | (encoded[2] & 0xFF) << 8 | (encoded[3] & 0xFF) << 16
                        | (encoded[4] & 0xFF) << 24;
                assertThat(length).isEqualTo(encoded.length - 5);
                offset = 5;
            }
            RunLengthBitPackingHybridDecoder decoder = new RunLengthBitPackingHybridDecoder(bitWidth,
                    new ByteArrayInputStream(encoded, offset, encoded.length - offset));
            for (int i = 0; i < values.length; i++) {
                assertThat(decoder.readInt()).as("value %d of %d, width %d", i, values.length, bitWidth)
                        .isEqualTo(values[i]);
            }
            assertThat((long) encoded.length - offset).isLessThanOrEqualTo(parquetJavaSize(values, bitWidth));
        }
    }

    private static long parquetJavaSize(int[] values, int bitWidth) throws IOException {
        RunLengthBitPackingHybridEncoder e = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20,
                new HeapByteBufferAllocator());
        try {
            for (int v : values) {
                e.writeInt(v);
            }
            return e.toBytes().size();
        } finally {
            e.close();
        }
    }
}
