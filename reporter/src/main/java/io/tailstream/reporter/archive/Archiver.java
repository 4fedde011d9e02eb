package io.tailstream.reporter.archive;

import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes {@link Topics#SAMPLES}, {@link Topics#WINDOWS}, {@link Topics#CONTROL}, {@link Topics#STALLS},
 * {@link Topics#SUMMARIES} and {@link Topics#RUN_SUMMARIES} (those that exist) and writes the archive's
 * Parquet datasets (layout in {@link ArchiveLayout}, columns in {@code package-info.java}).
 *
 * <h2>Exactly once into files</h2>
 * Rows are buffered per topic partition. A flush writes, for each run in the buffer, one file per dataset named
 * after the partition and the offset range it covers, each to a temporary name that is atomically renamed into
 * place; derived datasets ({@code steps}, {@code runs} from the run's whole {@code control} dataset, {@code stalls},
 * {@code summaries} and {@code run_summaries} from its {@code stall_events}, {@code summary_events} and
 * {@code run_summary_events}) are then recomputed and replaced; only then is the offset after the range committed. A crash before the commit leaves files
 * whose range starts at or after the committed offset: on restart the archiver finds them and flushes at exactly
 * the same offsets again, so the rewritten files replace the old ones under the same names. Neither duplicates
 * nor gaps, which {@link ArchiveVerifier} proves from block sequences.
 *
 * <p>Samples files are completed, forced to disk and renamed by the writer's encoder thread while this thread
 * decodes the next records; a flush's offsets are committed, in order, from a later poll once its files are in
 * place. A revocation waits for them and commits before the partitions are given up; a samples file that cannot
 * be written fails the archiver, and no offset from its range on is committed.
 *
 * <p>Offsets identify records only within one incarnation of a topic: a new cluster (the in-process broker of each
 * local run, a rebuilt cluster) or a topic created again starts at 0 and commits nothing. So each file records the
 * {@code TopicIncarnation} it was read from (the cluster id and topic id, asked of the cluster at each assignment),
 * and only files of the same incarnation, or of none (written before files recorded it), count as an interrupted
 * flush; the others are left as they are.
 *
 * <h2>Several archivers</h2>
 * Archivers of one consumer group share the partitions through the group's assignment (the consumer subscribes to
 * the six topics). A partition changes owner only in a rebalance: the revoking owner first flushes and commits what
 * it buffered of it ({@link ConsumerRebalanceListener#onPartitionsRevoked}); the new owner starts at the committed
 * offset, deletes the temporary files earlier owners left for that partition, and lists the archive for files of
 * the partition beyond the committed offset (a flush whose commit was lost: a crash, or a commit refused because
 * the group had moved on) to rewrite them at the same boundaries. Files are named after their topic partition, so
 * instances never write the same name except when re-archiving the same range, and temporary files carry the
 * writing instance's tag. A partition lost without a revocation (this instance was expelled from the group) is
 * dropped uncommitted.
 *
 * <p>This class is the consumer loop; {@link ArchiverRebalance} ties the writer to the group's assignment,
 * {@link PartitionProgress} counts what was consumed and publishes the status and progress, and
 * {@link ArchiverClientProperties} configures the Kafka clients.
 *
 * <p>Thread safety: {@link #runUntilCaughtUp()} or {@link #runUntilClosed()} runs on one thread; {@link #close()}
 * may be called from any thread and makes a running loop flush, commit and return within a poll interval (200 ms)
 * plus the flush.
 */
public final class Archiver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);
    /** The topics archived, in the order they are assigned. */
    public static final List<String> TOPICS = List.of(Topics.SAMPLES, Topics.WINDOWS, Topics.CONTROL,
            Topics.STALLS, Topics.SUMMARIES, Topics.RUN_SUMMARIES);
    private static final Duration POLL = Duration.ofMillis(200);
    /** A caught-up run gives up when no partition moved for this long: the broker is gone or stuck. */
    private static final Duration NO_PROGRESS_TIMEOUT = Duration.ofSeconds(60);
    /** The consumer subscribes to these topics by pattern: topics created after start are picked up. */
    private static final Pattern TOPIC_PATTERN = Pattern.compile(TOPICS.stream().map(Pattern::quote)
            .collect(Collectors.joining("|")));
    /** How often catching up reports done/total, rate and ETA. */
    public static final Duration CATCH_UP_PROGRESS_INTERVAL = Duration.ofSeconds(5);
    /** How often continuous archiving reports its lag. */
    public static final Duration CONTINUOUS_PROGRESS_INTERVAL = Duration.ofSeconds(30);
    /** How often the loop publishes {@link #status()}. */
    public static final Duration STATUS_INTERVAL = Duration.ofSeconds(1);

    private final ArchiverConfig config;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final IncarnationLookup incarnations;
    private final ArchiveWriter writer;
    private final PartitionProgress progress;
    private final ArchiverRebalance rebalance;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;
    private volatile boolean running;
    private boolean closed;

    /** Receives a progress report every few seconds from the archiving thread (it must return quickly). */
    @FunctionalInterface
    public interface ProgressListener {
        void progress(ArchiveProgress progress);
    }

    /** Creates the consumer (no network traffic until a run method is called); progress is logged at INFO. */
    public Archiver(ArchiverConfig config) {
        this(config, p -> LOG.info("{}", p.line()));
    }

    /**
     * Creates the consumer (no network traffic until a run method is called).
     *
     * @param progress told how far the archiver is every {@link #CATCH_UP_PROGRESS_INTERVAL} while catching up,
     *                 every {@link #CONTINUOUS_PROGRESS_INTERVAL} (lag included) while archiving continuously
     */
    public Archiver(ArchiverConfig config, ProgressListener progress) {
        this.config = config;
        this.consumer = new KafkaConsumer<>(ArchiverClientProperties.consumer(config));
        this.incarnations = new IncarnationLookup(config);
        // the writer calls back into the consumer on this same thread, the only thread that uses the consumer
        this.writer = new ArchiveWriter(config.archiveDir(), config.rollRows(), config.rowGroupRows(), this::commit);
        this.progress = new PartitionProgress(consumer, writer, progress);
        this.rebalance = new ArchiverRebalance(consumer, writer, incarnations, this.progress);
    }

    /**
     * Commits once a flush's files are in place. A commit the group refuses (a rebalance under way, or this
     * instance expelled) leaves the flushed files beyond the committed offset: the partition's next owner rewrites
     * them at the same boundaries, and a later commit by this instance (still owning the partition) covers them.
     */
    private void commit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            consumer.commitSync(offsets);
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.warn("the group refused the commit of {} ({}): the partitions' next owner re-archives those ranges"
                    + " into the same files", offsets.keySet(), e.getMessage());
        }
    }

    /** True if {@code archiveDir} holds files of run {@code runId} in any dataset. */
    public static boolean holdsRun(Path archiveDir, String runId) {
        return ArchiveLayout.DATASETS.stream()
                .anyMatch(d -> Files.isDirectory(ArchiveLayout.runDir(archiveDir, d, runId)));
    }

    /**
     * Archives everything from the committed offsets (or the beginning) to the end offsets observed at start,
     * commits, and returns what it did. The batch mode {@code demo} uses.
     */
    public static ArchiveSummary archiveUntilCaughtUp(String bootstrapServers, Path archiveDir) {
        return archiveUntilCaughtUp(ArchiverConfig.of(bootstrapServers, archiveDir));
    }

    /** See {@link #archiveUntilCaughtUp(String, Path)}. */
    public static ArchiveSummary archiveUntilCaughtUp(ArchiverConfig config) {
        try (Archiver archiver = new Archiver(config)) {
            return archiver.runUntilCaughtUp();
        }
    }

    /**
     * See {@link #archiveUntilCaughtUp(String, Path)}. With several archivers in the group, this one archives the
     * partitions it is assigned, each up to its end offset at start (at its assignment for a topic created later;
     * further if files of an interrupted flush reach beyond it), and returns once every partition it owns is there.
     * Call at most once per archiver.
     */
    public ArchiveSummary runUntilCaughtUp() {
        return run(this::catchUp);
    }

    /**
     * Archives continuously, rolling files every {@link ArchiverConfig#rollInterval()} (and per partition at
     * {@link ArchiverConfig#rollRows()}), until {@link #close()} is called from another thread; then flushes,
     * commits and returns what it did. Call at most once per archiver.
     */
    public ArchiveSummary runUntilClosed() {
        return run(this::archiveUntilClosing);
    }

    /** Runs {@code loop}, then flushes, commits and sums up; marks the archiver running meanwhile. */
    private ArchiveSummary run(Runnable loop) {
        long t0 = System.nanoTime();
        running = true;
        try {
            loop.run();
            writer.flushAll();
            progress.publishStatus();
            return summary(t0);
        } finally {
            running = false;
            stopped.countDown();
        }
    }

    private void catchUp() {
        List<TopicPartition> existing = new ArrayList<>();
        for (String topic : TOPICS) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos != null) {
                infos.forEach(i -> existing.add(new TopicPartition(topic, i.partition())));
            }
        }
        progress.catchUpTo(consumer.endOffsets(existing));
        LOG.info("archiving the group's share of {} partitions up to end offsets {}", existing.size(),
                progress.targets());
        consumer.subscribe(TOPIC_PATTERN, rebalance);
        progress.startConsuming();
        long lastReport = System.nanoTime();
        while ((rebalance.awaitingAssignment() || !progress.allReached()) && !closing) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            writer.accept(records);
            progress.publishStatusEverySecond();
            if (System.nanoTime() - lastReport >= CATCH_UP_PROGRESS_INTERVAL.toNanos()) {
                progress.report();
                lastReport = System.nanoTime();
            }
            boolean reached = progress.pauseReached();
            if (reached || !records.isEmpty()) {
                progress.moved();
            } else if (progress.sinceMoved().compareTo(NO_PROGRESS_TIMEOUT) > 0) {
                throw new IllegalStateException("archiver made no progress for " + NO_PROGRESS_TIMEOUT
                        + (rebalance.awaitingAssignment() ? " waiting for the group to assign partitions" : "")
                        + " at " + progress.positionsAndTargets() + " (" + config.bootstrapServers() + ")");
            }
        }
    }

    private void archiveUntilClosing() {
        consumer.subscribe(TOPIC_PATTERN, rebalance);
        progress.startConsuming();
        long lastFlush = System.nanoTime();
        long lastReport = lastFlush;
        while (!closing) {
            writer.accept(consumer.poll(POLL));
            progress.publishStatusEverySecond();
            long now = System.nanoTime();
            if (now - lastReport >= CONTINUOUS_PROGRESS_INTERVAL.toNanos()) {
                progress.report();
                lastReport = now;
            }
            if (now - lastFlush >= config.rollInterval().toNanos()) {
                writer.flushAll();
                lastFlush = now;
            }
        }
    }

    /**
     * Makes a running loop flush, commit and return, waits for it (at most two minutes), then releases the
     * consumer. Idempotent; callable from any thread.
     */
    @Override
    public void close() {
        closing = true;
        if (running) {
            try {
                if (!stopped.await(2, TimeUnit.MINUTES)) {
                    LOG.warn("archiver loop did not stop within 2 minutes; closing its consumer anyway");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("interrupted while waiting for the archiver loop to stop; closing its consumer anyway");
            }
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        rebalance.dropOnRevocation();
        // leaves the group: the others take this instance's partitions from the offsets committed by the loop
        consumer.close(Duration.ofSeconds(5));
        incarnations.close();
        writer.close();
    }

    /**
     * What the archiver has done and how far behind it is, as its loop last published it (at most
     * {@link #STATUS_INTERVAL} old while it runs; {@link ArchiverStatus#NONE} before it started). Thread safe: for a
     * metrics endpoint.
     */
    public ArchiverStatus status() {
        return progress.status();
    }

    private ArchiveSummary summary(long t0) {
        ArchiveSummary s = writer.summary(Duration.ofNanos(System.nanoTime() - t0));
        LOG.info("archived {} files, rows {}, {} blocks, {} samples, {} undecodable records; block check: {}",
                s.filesWritten(), s.rowsByDataset(), s.blocksSeen(), s.samplesSeen(), s.corruptRecords(),
                s.blockChecks().isEmpty() ? "no runs touched" : s.blocksConsistent() ? "every block exactly once" : s.blockChecks());
        return s;
    }
}
