package io.tailstream.schemas.block;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link SampleBlockEncoder#sealPublished}: blocks of the samples added since a position, while the owner adds. */
class SealPublishedTest {

    private static final List<String> OPS = List.of("read", "update");

    private static Sample randomSample(SplittableRandom rnd, long start, boolean openLoop) {
        // one in ten latencies takes 5 varint bytes, so the encoder's 64-byte buffer grows while a reader reads
        long latency = rnd.nextInt(10) == 0 ? rnd.nextLong(3_600_000_000L) : rnd.nextLong(20_000);
        long intended = openLoop ? start - rnd.nextLong(10_000) : start;
        return new Sample(start, latency, intended, rnd.nextInt(OPS.size()),
                SampleStatus.values()[rnd.nextInt(SampleStatus.values().length)], rnd.nextInt(30), rnd.nextBoolean());
    }

    private static void add(SampleBlockEncoder enc, Sample s) {
        enc.add(s.startEpochMicros(), s.latencyMicros(), s.intendedStartEpochMicros(), s.opIndex(), s.status(),
                s.queries(), s.warmup());
    }

    @ParameterizedTest(name = "openLoop={0}")
    @ValueSource(booleans = {false, true})
    void blocksFromSuccessivePositions_decodeToTheSamplesInOrder_eachWithItsFirstStartAsBase(boolean openLoop) {
        SplittableRandom rnd = new SplittableRandom(7);
        SampleBlockEncoder enc = new SampleBlockEncoder(1000, openLoop);
        List<Sample> expected = new ArrayList<>();
        List<Sample> decoded = new ArrayList<>();
        SampleBlockEncoder.Position at = SampleBlockEncoder.Position.START;
        long t = 1_764_474_600_000_000L;
        int blocks = 0;
        while (expected.size() < 1000) {
            int n = Math.min(1 + rnd.nextInt(40), 1000 - expected.size());
            for (int i = 0; i < n; i++) {
                t += rnd.nextInt(-500, 2_000); // starts are not monotonic: deltas can be negative
                Sample s = randomSample(rnd, t, openLoop);
                expected.add(s);
                add(enc, s);
            }
            SampleBlockEncoder.Sealed sealed = enc.sealPublished(at, "run-1", "p-1", blocks, 3, t, OPS, 0);
            assertThat(sealed.samples()).isEqualTo(n);
            assertThat(sealed.next().samples()).isEqualTo(expected.size());
            assertThat(sealed.next().lastStartEpochMicros()).isEqualTo(t);
            BlockHeader h = SampleBlockDecoder.readHeader(sealed.block());
            assertThat(h).isEqualTo(new BlockHeader("run-1", "p-1", blocks, 3,
                    openLoop ? SampleBlock.FLAG_OPEN_LOOP : 0, t, OPS, n));
            List<Sample> samples = SampleBlockDecoder.samples(sealed.block());
            assertThat(samples).containsExactlyElementsOf(expected.subList(expected.size() - n, expected.size()));
            decoded.addAll(samples);
            at = sealed.next();
            blocks++;
            assertThat(enc.sealPublished(at, "run-1", "p-1", blocks, 3, t, OPS, 0)).as("nothing new").isNull();
        }
        assertThat(decoded).containsExactlyElementsOf(expected);
        // the owner's own seal still covers the whole block
        assertThat(SampleBlockDecoder.samples(enc.seal("run-1", "p-1", blocks, 3, t, OPS, 0)))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void fromStart_isTheSameBlockAsSeal() {
        SampleBlockEncoder enc = new SampleBlockEncoder(16, false);
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 10; i++) {
            add(enc, randomSample(rnd, 1_764_474_600_000_000L + i * 100L, false));
        }
        byte[] sealed = enc.seal("r", "p", 5, 1, 42, OPS, 0);
        assertThat(enc.sealPublished(SampleBlockEncoder.Position.START, "r", "p", 5, 1, 42, OPS, 0).block())
                .isEqualTo(sealed);
    }

    @Test
    void afterReset_nothingIsPublished() {
        SampleBlockEncoder enc = new SampleBlockEncoder(16, false);
        add(enc, randomSample(new SplittableRandom(2), 1_764_474_600_000_000L, false));
        assertThat(enc.publishedSampleCount()).isEqualTo(1);
        enc.reset();
        assertThat(enc.publishedSampleCount()).isZero();
        assertThat(enc.sealPublished(SampleBlockEncoder.Position.START, "r", "p", 0, 1, 42, OPS, 0)).isNull();
    }

    /**
     * A reader seals while the owner adds on another thread, the owner's buffer growing meanwhile: every sample ends up
     * in exactly one block, in order, with its exact values. Fails if a sample's bytes are read before they are
     * published (a torn varint decodes to other values or a wrong length) or if growth loses published bytes.
     */
    @ParameterizedTest(name = "openLoop={0}")
    @ValueSource(booleans = {false, true})
    void readerOnAnotherThread_seesEverySampleOnce_whileTheOwnerAddsAndGrows(boolean openLoop) throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        int readerBlocks = 0;
        for (int round = 0; round < 20; round++) {
            int total = 20_000;
            List<Sample> expected = new ArrayList<>(total);
            long t = 1_764_474_600_000_000L;
            for (int i = 0; i < total; i++) {
                t += rnd.nextInt(-500, 2_000);
                // 5-byte latencies: about 9 bytes a sample, over the 8 the buffer is sized for, so it grows mid-way
                expected.add(new Sample(t, 1_000_000_000L + rnd.nextLong(1_000_000_000L),
                        openLoop ? t - rnd.nextLong(10_000) : t, rnd.nextInt(OPS.size()), SampleStatus.OK,
                        rnd.nextInt(30), false));
            }
            SampleBlockEncoder enc = new SampleBlockEncoder(total, openLoop);
            AtomicReference<Throwable> ownerFailed = new AtomicReference<>();
            AtomicInteger readerSamples = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Thread owner = new Thread(() -> {
                try {
                    go.await();
                    for (int i = 0; i < total; i++) {
                        add(enc, expected.get(i));
                        if (i % 16 == 0) { // a worker between transactions: the reader gets its turns
                            for (int k = 0; k < 100; k++) {
                                Thread.onSpinWait();
                            }
                        }
                        if ((i + 1) % CATCH_UP_EVERY == 0) {
                            // the reader seals at least once per stretch, however the threads are scheduled: the
                            // owner waits until it has read what is published so far
                            awaitReader(readerSamples, i + 1);
                        }
                    }
                } catch (Throwable e) {
                    ownerFailed.set(e);
                }
            });
            owner.start();
            go.countDown();
            List<Sample> decoded = new ArrayList<>(total);
            SampleBlockEncoder.Position at = SampleBlockEncoder.Position.START;
            int blocks = 0;
            while (at.samples() < total) {
                SampleBlockEncoder.Sealed sealed = enc.sealPublished(at, "run-1", "p-1", blocks, 1, 1, OPS, 0);
                if (sealed == null) {
                    if (!owner.isAlive() && enc.publishedSampleCount() == at.samples()) {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                decoded.addAll(SampleBlockDecoder.samples(sealed.block()));
                at = sealed.next();
                readerSamples.set(at.samples());
                blocks++;
            }
            owner.join();
            assertThat(ownerFailed.get()).isNull();
            readerBlocks += blocks;
            assertThat(at.pos()).as("the buffer grew").isGreaterThan(total * 8);
            assertThat(decoded).containsExactlyElementsOf(expected);
        }
        assertThat(readerBlocks).as("the reader sealed while the owner added")
                .isGreaterThanOrEqualTo(20 * (20_000 / CATCH_UP_EVERY));
    }

    /** Samples the owner adds before it lets the reader catch up. */
    private static final int CATCH_UP_EVERY = 1_000;

    /** Waits until the reader has read {@code samples} samples (it seals whatever is published, in its own time). */
    private static void awaitReader(AtomicInteger readerSamples, int samples) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (readerSamples.get() < samples) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the reader did not read " + samples + " published samples within 60 s");
            }
            Thread.onSpinWait();
        }
    }
}
