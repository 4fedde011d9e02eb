package io.tailstream.schemas.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SampleBlockRoundTripTest {

    private static final List<String> OPS = List.of("read", "update", "insert", "scan");

    @ParameterizedTest(name = "openLoop={0}")
    @ValueSource(booleans = {false, true})
    void randomSamples_decodeToExactlyWhatWasEncoded(boolean openLoop) {
        SplittableRandom rnd = new SplittableRandom(42);
        SampleBlockEncoder enc = new SampleBlockEncoder(4096, openLoop);
        for (int block = 0; block < 50; block++) {
            enc.reset();
            List<Sample> expected = new ArrayList<>();
            int n = 1 + rnd.nextInt(4096);
            long t = 1_764_474_600_000_000L + rnd.nextLong(1_000_000_000L);
            for (int i = 0; i < n; i++) {
                t += rnd.nextInt(-500, 2_000); // concurrent workers: starts are not monotonic
                long latency = rnd.nextInt(10) == 0 ? rnd.nextLong(3_600_000_000L) : rnd.nextLong(20_000);
                long intended = openLoop ? t - rnd.nextLong(10_000) : t;
                Sample s = new Sample(t, latency, intended, rnd.nextInt(OPS.size()),
                        SampleStatus.values()[rnd.nextInt(SampleStatus.values().length)],
                        rnd.nextInt(30), rnd.nextBoolean());
                expected.add(s);
                enc.add(s.startEpochMicros(), s.latencyMicros(), s.intendedStartEpochMicros(), s.opIndex(),
                        s.status(), s.queries(), s.warmup());
            }
            byte[] bytes = enc.seal("run-1", "p-1", block, 7, t, OPS, 0);
            BlockHeader h = SampleBlockDecoder.readHeader(bytes);
            assertThat(h).isEqualTo(new BlockHeader("run-1", "p-1", block, 7,
                    openLoop ? SampleBlock.FLAG_OPEN_LOOP : 0, t, OPS, n));
            assertThat(SampleBlockDecoder.samples(bytes)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void varLongSize_isTheEncodedLength_atEveryLengthEdge() {
        List<Long> values = new ArrayList<>(List.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
        for (int bits = 7; bits < 64; bits += 7) {
            values.add((1L << bits) - 1);
            values.add(1L << bits);
        }
        for (long v : values) {
            int bytes = 1;
            for (long rest = v; (rest & ~0x7FL) != 0; rest >>>= 7) {
                bytes++;
            }
            assertThat(SampleBlockEncoder.varLongSize(v)).as("varint bytes of %d", v).isEqualTo(bytes);
        }
        // seal() writes into an array of the computed size and fails if the written length differs
        assertThat(SampleBlockEncoder.marker("r", "p", Long.MAX_VALUE, Integer.MAX_VALUE, SampleBlock.FLAG_HEARTBEAT,
                Long.MAX_VALUE, OPS)).isNotEmpty();
    }

    @Test
    void typicalOltpSamples_takeFewBytesEach() {
        SampleBlockEncoder enc = new SampleBlockEncoder(1024, false);
        long t = 1_764_474_600_000_000L;
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 1024; i++) {
            t += rnd.nextInt(0, 200);
            enc.add(t, 150 + rnd.nextInt(3_000), t, 0, SampleStatus.OK, 1, false);
        }
        byte[] bytes = enc.seal("run-1", "p-1", 0, 1, t, List.of("point_select"), 0);
        assertThat((double) bytes.length / 1024).isLessThan(6.0);
    }

    @Test
    void encoder_isReusableAfterReset() {
        SampleBlockEncoder enc = new SampleBlockEncoder(2, false);
        enc.add(100, 5, 100, 0, SampleStatus.OK, 1, false);
        enc.add(200, 5, 200, 0, SampleStatus.OK, 1, false);
        assertThat(enc.isFull()).isTrue();
        assertThatThrownBy(() -> enc.add(300, 5, 300, 0, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("full");
        enc.reset();
        enc.add(300, 6, 300, 0, SampleStatus.OK, 1, false);
        byte[] bytes = enc.seal("r", "p", 1, 1, 400, List.of("op"), 0);
        assertThat(SampleBlockDecoder.samples(bytes))
                .containsExactly(new Sample(300, 6, 300, 0, SampleStatus.OK, 1, false));
    }

    @Test
    void encoder_refusesValuesOutsideTheFormat() {
        SampleBlockEncoder enc = new SampleBlockEncoder(8, true);
        assertThatThrownBy(() -> enc.add(100, -1, 100, 0, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> enc.add(100, 1, 100, SampleBlock.MAX_OPS, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> enc.add(100, 1, 101, 0, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intended start");
        assertThatThrownBy(() -> enc.add(-5, 1, -5, 0, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start=-5");
        assertThatThrownBy(() -> enc.add(100, 1, 100, -1, SampleStatus.OK, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("op=-1");
        assertThatThrownBy(() -> enc.add(100, 1, 100, 0, SampleStatus.OK, -2, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queries=-2");
        // a refused sample leaves nothing behind: the block holds exactly the samples that were accepted
        enc.add(200, 7, 190, 1, SampleStatus.OK, 3, false);
        byte[] block = enc.seal("r", "p", 0, 0, 0, List.of("a", "b"), 0);
        assertThat(SampleBlockDecoder.samples(block))
                .containsExactly(new Sample(200, 7, 190, 1, SampleStatus.OK, 3, false));
        assertThatThrownBy(() -> enc.seal("x".repeat(SampleBlock.MAX_ID_BYTES + 1), "p", 0, 0, 0, List.of(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
        assertThatThrownBy(() -> enc.seal("r", "p", 0, 0, 0, List.of(), 0x40))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flags");
    }

    @Test
    void markers_carryNoSamplesButTheClockAndOps() {
        byte[] hb = SampleBlockEncoder.marker("r", "p", 9, 2, SampleBlock.FLAG_HEARTBEAT, 123_456, List.of("a", "b"));
        BlockHeader h = SampleBlockDecoder.decode(hb, (s, l, i, o, st, q, w) -> {
            throw new AssertionError("a heartbeat has no samples");
        });
        assertThat(h.heartbeat()).isTrue();
        assertThat(h.endOfStep()).isFalse();
        assertThat(h.sealedAtEpochMicros()).isEqualTo(123_456);
        assertThat(h.ops()).containsExactly("a", "b");
        assertThat(h.sampleCount()).isZero();
        assertThatThrownBy(() -> SampleBlockEncoder.marker("r", "p", 9, 2, 0, 1, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
