package io.tailstream.schemas.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Version-1 blocks are frozen: the encoder must keep producing exactly the bytes in the golden files, and the
 * decoder must keep reading them to exactly the samples listed beside them.
 */
class GoldenVectorTest {

    static Stream<Arguments> vectors() {
        return Stream.of(
                Arguments.of("v1-closed-loop", (Supplier<byte[]>) GoldenBlocks::closedLoop),
                Arguments.of("v1-open-loop", (Supplier<byte[]>) GoldenBlocks::openLoop),
                Arguments.of("v1-heartbeat", (Supplier<byte[]>) GoldenBlocks::heartbeat),
                Arguments.of("v1-end-of-step", (Supplier<byte[]>) GoldenBlocks::endOfStep));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void encoder_producesTheGoldenBytes(String name, Supplier<byte[]> block) throws IOException {
        assertThat(HexFormat.of().formatHex(block.get())).isEqualTo(resource(name + ".hex").trim());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decoder_readsTheGoldenBytesToTheListedSamples(String name, Supplier<byte[]> unused) throws IOException {
        byte[] golden = HexFormat.of().parseHex(resource(name + ".hex").trim());
        BlockHeader h = SampleBlockDecoder.readHeader(golden);
        List<Sample> samples = SampleBlockDecoder.samples(golden);
        StringBuilder text = new StringBuilder();
        text.append("header ").append(h).append('\n');
        for (Sample s : samples) {
            text.append(s).append('\n');
        }
        assertThat(text.toString()).isEqualTo(resource(name + ".txt"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = GoldenVectorTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
