package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.schemas.Topics;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Samples files published on the encoder thread while the archiving thread goes on: a flush's offsets are committed
 * only once its files (and every earlier one) are in place, a file that cannot be published fails the writer with
 * nothing committed from its range on, and partitions given up wait for the file in flight. The encoder thread here
 * holds each file until the test lets it go, so every state is observed, not raced.
 */
class ArchiveWriterPublishTest {

    private static final TopicPartition P0 = new TopicPartition(Topics.SAMPLES, 0);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int ROLL_ROWS = 700;

    @TempDir
    Path archive;

    private final HeldEncoderThread encoder = new HeldEncoderThread();
    private final List<Map<TopicPartition, OffsetAndMetadata>> commits = new ArrayList<>();
    private List<byte[]> blocks;
    private ArchiveWriter writer;

    @BeforeEach
    void start() {
        SyntheticRun run = new SyntheticRun("publish", 5, List.of("pa"), List.of(
                new SyntheticRun.StepSpec("t1", "oltp_point_select", 4, 1, 1, 200, 1800)), 2_000, 1,
                1_760_000_000_000L);
        blocks = run.sampleRecords.stream().map(SyntheticRun.Rec::value).toList();
        // one row group a file: the file's only encoding task is also the one that publishes it
        writer = new ArchiveWriter(archive, ROLL_ROWS, 1 << 20, this::commit, encoder);
        writer.addPartition(P0, 0);
    }

    @AfterEach
    void stop() {
        encoder.letRun();
        writer.close();
    }

    /**
     * Every commit finds the samples files of the committed range in place, one after another from offset 0. Files
     * beyond it may be in place too: the encoder thread may publish the next file between the writer's look at what
     * is done and this listing.
     */
    private void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        long next = 0;
        for (ArchiveLayout.SourceRange r : samplesFiles()) {
            assertThat(r.fromOffset()).as("files in place follow each other").isEqualTo(next);
            next = r.toOffset() + 1;
        }
        assertThat(offsets.get(P0).offset()).as("committed offset, within the files in place")
                .isLessThanOrEqualTo(next);
        commits.add(offsets);
    }

    @Test
    void rollFlush_handsTheFileOver_andCommitsOnceItIsInPlace() throws Exception {
        long handedOverAt = feedOnAnotherThreadPastTheFirstFlush();

        assertThat(samplesFiles()).as("the first file, held on the encoder thread").isEmpty();
        assertThat(commits).isEmpty();
        encoder.runAll();
        assertThat(samplesFiles()).hasSize(1);
        assertThat(commits).as("not committed before the next poll").isEmpty();

        writer.accept(ConsumerRecords.empty());

        assertThat(commits).containsExactly(Map.of(P0, new OffsetAndMetadata(handedOverAt + 1)));
    }

    @Test
    void publishFailing_failsTheNextPoll_andNothingIsCommittedFromItsRangeOn() throws Exception {
        String firstFile = firstFileName();
        // a non-empty directory under the first file's name: the rename onto it fails
        Path obstacle = ArchiveLayout.runDir(archive, ArchiveLayout.SAMPLES, "publish").resolve(firstFile);
        Files.createDirectories(obstacle);
        Files.writeString(obstacle.resolve("keep"), "x");
        long handedOverAt = feedOnAnotherThreadPastTheFirstFlush();

        encoder.runAll();

        assertThatThrownBy(() -> writer.accept(ConsumerRecords.empty())).isInstanceOf(UncheckedIOException.class)
                .hasStackTraceContaining(firstFile);
        // refused from now on: the rest of the partition writes no further file, and nothing is committed
        assertThatThrownBy(() -> {
            for (int i = (int) handedOverAt + 2; i < blocks.size(); i++) {
                writer.accept(record(i));
            }
        }).isInstanceOf(UncheckedIOException.class);
        assertThatThrownBy(writer::flushAll).isInstanceOf(UncheckedIOException.class);
        assertThat(commits).isEmpty();
        assertThat(ArchiveLayout.runFiles(archive)).as("files beyond the first range's blocks")
                .noneMatch(f -> f.getFileName().toString().endsWith(".parquet")
                        && ArchiveLayout.parseSourceFileName(f.getFileName().toString()).orElseThrow().fromOffset()
                        > handedOverAt);
    }

    @Test
    void revocation_waitsForTheFileInFlight_thenCommitsAllThatWasBuffered() throws Exception {
        long handedOverAt = feedOnAnotherThreadPastTheFirstFlush();

        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread revoking = start(() -> {
            writer.flush(List.of(P0));
            writer.removePartitions(List.of(P0));
        }, failed);
        awaitCondition("the revocation waits for the file in flight", encoder::waitedFor);
        assertThat(revoking.isAlive()).isTrue();
        assertThat(commits).isEmpty();

        encoder.letRun();
        awaitCondition("the revocation returned", () -> !revoking.isAlive());

        assertThat(failed.get()).isNull();
        assertThat(commits).isNotEmpty();
        assertThat(commits.get(commits.size() - 1)).as("the file in flight and the record buffered after it")
                .containsEntry(P0, new OffsetAndMetadata(handedOverAt + 2));
    }

    @Test
    void lostPartition_removalWaitsForTheFileInFlight_andNeverCommitsIt() throws Exception {
        feedOnAnotherThreadPastTheFirstFlush();

        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread losing = start(() -> writer.removePartitions(List.of(P0)), failed);
        awaitCondition("the removal waits for the file in flight", encoder::waitedFor);
        encoder.letRun();
        awaitCondition("the removal returned", () -> !losing.isAlive());

        assertThat(failed.get()).isNull();
        assertThat(samplesFiles()).as("in place for the listing of the partition's next assignment").hasSize(1);
        writer.accept(ConsumerRecords.empty());
        writer.flushAll();
        assertThat(commits).isEmpty();
    }

    /**
     * Feeds records on a thread of its own until the first file is handed to the encoder, and one more record (a
     * block of 64 samples: short of the next flush), and checks that the thread returned without waiting for the
     * file.
     *
     * @return the offset of the first file's last record
     */
    private long feedOnAnotherThreadPastTheFirstFlush() throws Exception {
        long[] last = new long[1];
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread feeding = start(() -> {
            int i = 0;
            while (encoder.handedOver() == 0) {
                writer.accept(record(i++));
            }
            last[0] = i - 1;
            writer.accept(record(i));
        }, failed);
        awaitCondition("the feeding thread returns or waits for the encoder",
                () -> !feeding.isAlive() || encoder.waitedFor());
        assertThat(encoder.waitedFor()).as("the archiving thread waited for a file to be published").isFalse();
        feeding.join();
        assertThat(failed.get()).isNull();
        return last[0];
    }

    private ConsumerRecord<byte[], byte[]> record(int offset) {
        return new ConsumerRecord<>(P0.topic(), P0.partition(), offset, null, blocks.get(offset));
    }

    /** The name of the first samples file these records make, from a writer of its own. */
    private String firstFileName() throws Exception {
        Path scratch = Files.createTempDirectory(archive.getParent(), "scratch");
        try (ArchiveWriter w = new ArchiveWriter(scratch, ROLL_ROWS, 1 << 20, offsets -> { })) {
            w.addPartition(P0, 0);
            for (int i = 0; i < blocks.size(); i++) {
                w.accept(record(i));
            }
            w.flushAll();
        }
        return ArchiveLayout.runFiles(scratch).stream().map(f -> f.getFileName().toString())
                .filter(n -> n.endsWith(".parquet") && n.startsWith(Topics.SAMPLES)).sorted().findFirst()
                .orElseThrow();
    }

    /** The ranges of the samples files in place, by first offset. */
    private List<ArchiveLayout.SourceRange> samplesFiles() {
        return ArchiveLayout.runFiles(archive).stream()
                .filter(f -> f.getParent().getParent().getFileName().toString().equals(ArchiveLayout.SAMPLES))
                .filter(Files::isRegularFile)
                .map(f -> ArchiveLayout.parseSourceFileName(f.getFileName().toString()))
                .flatMap(Optional::stream)
                .sorted(Comparator.comparingLong(ArchiveLayout.SourceRange::fromOffset)).toList();
    }

    private static Thread start(Runnable body, AtomicReference<Throwable> failed) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failed.set(e);
            }
        }, "archiving");
        t.start();
        return t;
    }

    private static void awaitCondition(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("%s within %s", what, WAIT).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    /**
     * The writer's encoder thread, holding every task until the test lets it run, and telling whether anyone waited
     * for one (what the archiving thread must not do between flushes).
     */
    private static final class HeldEncoderThread extends AbstractExecutorService {

        private final ExecutorService thread = Executors.newSingleThreadExecutor();
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicInteger handedOver = new AtomicInteger();
        private final AtomicInteger ran = new AtomicInteger();
        private volatile boolean waitedFor;

        int handedOver() {
            return handedOver.get();
        }

        boolean waitedFor() {
            return waitedFor;
        }

        /** Lets every task run, those handed over and those to come. */
        void letRun() {
            released.countDown();
        }

        /** Lets every task run and waits until those handed over ran. */
        void runAll() throws InterruptedException {
            letRun();
            awaitCondition("the encoder ran what it was handed", () -> ran.get() == handedOver.get());
        }

        @Override
        protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
            return new FutureTask<>(callable) {
                @Override
                public T get() throws InterruptedException, ExecutionException {
                    waitedFor = true;
                    return super.get();
                }
            };
        }

        @Override
        public void execute(Runnable task) {
            handedOver.incrementAndGet();
            thread.execute(() -> {
                try {
                    released.await();
                    task.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    ran.incrementAndGet();
                }
            });
        }

        @Override
        public void shutdown() {
            letRun();
            thread.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            letRun();
            return thread.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return thread.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return thread.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return thread.awaitTermination(timeout, unit);
        }
    }
}
