package io.tailstream.reporter.archive;

import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
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
    /** How often the consumer looks for new topics matching {@link #TOPIC_PATTERN}. */
    private static final String METADATA_MAX_AGE_MS = "10000";
    /** Bytes a fetch returns at most, over all partitions and per partition (see {@link #consumerProperties}). */
    private static final int FETCH_BYTES = 448 * 1024;
    /** How long an assignment waits for the cluster id and topic ids. */
    private static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(30);
    /** How long the group waits for a silent member before giving its partitions to the others. */
    static final String SESSION_TIMEOUT_MS = "10000";
    /** How often catching up reports done/total, rate and ETA. */
    public static final Duration CATCH_UP_PROGRESS_INTERVAL = Duration.ofSeconds(5);
    /** How often continuous archiving reports its lag. */
    public static final Duration CONTINUOUS_PROGRESS_INTERVAL = Duration.ofSeconds(30);
    /** How often the loop publishes {@link #status()}. */
    public static final Duration STATUS_INTERVAL = Duration.ofSeconds(1);

    private final ArchiverConfig config;
    private final KafkaConsumer<byte[], byte[]> consumer;
    /**
     * Asks for the cluster id and topic ids at each assignment (the consumer does not expose them); created at the
     * first, on the archiving thread.
     */
    private Admin admin;
    private final ArchiveWriter writer;
    private final ProgressListener progress;
    /** Position of each assigned partition when it was assigned: what was consumed since is progress. */
    private final Map<TopicPartition, Long> startPositions = new HashMap<>();
    /** Records consumed of partitions this instance no longer owns. */
    private long recordsDoneReleased;
    /** Catching up: records from the assigned partitions' start positions to their targets. */
    private long recordsTotal;
    /** Catching up: per partition, the offset to archive up to (its end offset at start, or at its assignment). */
    private final Map<TopicPartition, Long> targets = new HashMap<>();
    /** Catching up: owned partitions not yet consumed up to their target. */
    private final Set<TopicPartition> remaining = new HashSet<>();
    private boolean catchingUp;
    /** Between a revocation (or the start) and the assignment that ends the rebalance. */
    private boolean awaitingAssignment = true;
    /** When a partition last moved or was assigned, for the no-progress check. */
    private long lastProgressNanos;
    /** Set by {@link #close()} before the consumer leaves the group: revoked partitions are dropped, not flushed. */
    private volatile boolean releasing;
    private long consumingSinceNanos;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;
    private volatile boolean running;
    private boolean closed;
    private volatile ArchiverStatus status = ArchiverStatus.NONE;
    private long lastStatusNanos;

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
        this.progress = progress;
        this.consumer = new KafkaConsumer<>(consumerProperties(config));
        // the writer calls back into the consumer on this same thread, the only thread that uses the consumer
        this.writer = new ArchiveWriter(config.archiveDir(), config.rollRows(), config.rowGroupRows(), this::commit);
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

    /** Ties the writer's buffers to the group's assignment. Runs on the archiving thread, inside poll. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            awaitingAssignment = true;
            if (partitions.isEmpty()) {
                return;
            }
            if (releasing) {
                // close(): the loop flushed what it could; whatever is left (a failed loop) stays uncommitted
                writer.removePartitions(partitions);
            } else {
                // before anyone else gets them: write and commit what is buffered, so the next owner starts there
                writer.flush(partitions);
                writer.removePartitions(partitions);
            }
            release(partitions);
            LOG.info("partitions revoked: {}", names(partitions));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            awaitingAssignment = true;
            // already someone else's: nothing may be committed, and the files of the buffer are not written
            writer.removePartitions(partitions);
            release(partitions);
            LOG.warn("partitions lost (this archiver left the group's generation): {}; their next owner archives"
                    + " them from the committed offsets", names(partitions));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            awaitingAssignment = false;
            lastProgressNanos = System.nanoTime();
            if (partitions.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> starts = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
            for (TopicPartition tp : partitions) {
                starts.put(tp, consumer.position(tp)); // the committed offset, or the beginning
            }
            writer.addPartitions(starts, incarnations(partitions));
            if (catchingUp) {
                List<TopicPartition> unknown = partitions.stream().filter(tp -> !targets.containsKey(tp)).toList();
                if (!unknown.isEmpty()) {
                    targets.putAll(consumer.endOffsets(unknown));
                }
            }
            List<TopicPartition> done = new ArrayList<>();
            for (Map.Entry<TopicPartition, Long> e : starts.entrySet()) {
                TopicPartition tp = e.getKey();
                startPositions.put(tp, e.getValue());
                if (!catchingUp) {
                    continue;
                }
                // files a previous owner published beyond the committed offset are rewritten whole
                long target = Math.max(targets.get(tp), writer.replayEnd(tp));
                targets.put(tp, target);
                recordsTotal += Math.max(0, target - e.getValue());
                if (e.getValue() < target) {
                    remaining.add(tp);
                } else {
                    done.add(tp);
                }
            }
            if (!done.isEmpty()) {
                consumer.pause(done);
            }
            LOG.info("partitions assigned: {}", names(partitions));
        }

        private void release(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                Long start = startPositions.remove(tp);
                if (start == null) {
                    continue;
                }
                long position = safePosition(tp, start);
                recordsDoneReleased += Math.max(0, position - start);
                if (remaining.remove(tp)) {
                    recordsTotal -= Math.max(0, targets.getOrDefault(tp, position) - position);
                }
            }
        }
    }

    /**
     * The incarnation of each topic of {@code partitions}, asked of the cluster now: a topic deleted and created again
     * since the last assignment has a new topic id.
     *
     * @throws IllegalStateException if the cluster does not answer within {@link #DESCRIBE_TIMEOUT}
     */
    private Map<String, TopicIncarnation> incarnations(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic)
                .collect(Collectors.toCollection(TreeSet::new));
        if (admin == null) {
            admin = Admin.create(adminProperties(config));
        }
        try {
            KafkaFuture<String> clusterId = admin.describeCluster().clusterId();
            Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
                    .get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            String cluster = clusterId.get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, TopicIncarnation> out = new HashMap<>();
            descriptions.forEach((topic, d) -> out.put(topic, new TopicIncarnation(cluster, d.topicId().toString())));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics " + topics + " at "
                    + config.bootstrapServers(), e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot describe the cluster and topics " + topics + " at "
                    + config.bootstrapServers() + " within " + DESCRIBE_TIMEOUT + ": " + cause, cause);
        }
    }

    /** The consumer's position of a partition it may no longer own (then {@code fallback}). */
    private long safePosition(TopicPartition tp, long fallback) {
        try {
            return consumer.position(tp, Duration.ZERO);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    private static String names(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::toString).sorted().collect(Collectors.joining(", "));
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
        long t0 = System.nanoTime();
        running = true;
        try {
            catchingUp = true;
            List<TopicPartition> existing = new ArrayList<>();
            for (String topic : TOPICS) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic);
                if (infos != null) {
                    infos.forEach(i -> existing.add(new TopicPartition(topic, i.partition())));
                }
            }
            targets.putAll(consumer.endOffsets(existing));
            LOG.info("archiving the group's share of {} partitions up to end offsets {}", existing.size(), targets);
            consumer.subscribe(TOPIC_PATTERN, new Rebalance());
            lastProgressNanos = System.nanoTime();
            consumingSinceNanos = lastProgressNanos;
            long lastReport = lastProgressNanos;
            while ((awaitingAssignment || !remaining.isEmpty()) && !closing) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                writer.accept(records);
                publishStatusEverySecond();
                if (System.nanoTime() - lastReport >= CATCH_UP_PROGRESS_INTERVAL.toNanos()) {
                    report(recordsTotal);
                    lastReport = System.nanoTime();
                }
                boolean moved = !records.isEmpty();
                for (var it = remaining.iterator(); it.hasNext(); ) {
                    TopicPartition tp = it.next();
                    if (consumer.position(tp) >= targets.get(tp)) {
                        it.remove();
                        consumer.pause(List.of(tp));
                        moved = true;
                    }
                }
                if (moved) {
                    lastProgressNanos = System.nanoTime();
                } else if (System.nanoTime() - lastProgressNanos > NO_PROGRESS_TIMEOUT.toNanos()) {
                    Map<String, Long> positions = new TreeMap<>();
                    remaining.forEach(tp -> positions.put(tp.toString(), consumer.position(tp)));
                    throw new IllegalStateException("archiver made no progress for " + NO_PROGRESS_TIMEOUT
                            + (awaitingAssignment ? " waiting for the group to assign partitions" : "")
                            + " at positions " + positions + ", targets " + targets + " ("
                            + config.bootstrapServers() + ")");
                }
            }
            writer.flushAll();
            publishStatus();
            return summary(t0);
        } finally {
            running = false;
            stopped.countDown();
        }
    }

    /**
     * Archives continuously, rolling files every {@link ArchiverConfig#rollInterval()} (and per partition at
     * {@link ArchiverConfig#rollRows()}), until {@link #close()} is called from another thread; then flushes,
     * commits and returns what it did. Call at most once per archiver.
     */
    public ArchiveSummary runUntilClosed() {
        long t0 = System.nanoTime();
        running = true;
        try {
            consumer.subscribe(TOPIC_PATTERN, new Rebalance());
            long lastFlush = System.nanoTime();
            long lastReport = lastFlush;
            consumingSinceNanos = lastFlush;
            while (!closing) {
                writer.accept(consumer.poll(POLL));
                publishStatusEverySecond();
                long now = System.nanoTime();
                if (now - lastReport >= CONTINUOUS_PROGRESS_INTERVAL.toNanos()) {
                    report(-1);
                    lastReport = now;
                }
                if (now - lastFlush >= config.rollInterval().toNanos()) {
                    writer.flushAll();
                    lastFlush = now;
                }
            }
            writer.flushAll();
            publishStatus();
            return summary(t0);
        } finally {
            running = false;
            stopped.countDown();
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
        releasing = true;
        // leaves the group: the others take this instance's partitions from the offsets committed by the loop
        consumer.close(Duration.ofSeconds(5));
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        writer.close();
    }

    /**
     * What the archiver has done and how far behind it is, as its loop last published it (at most
     * {@link #STATUS_INTERVAL} old while it runs; {@link ArchiverStatus#NONE} before it started). Thread safe: for a
     * metrics endpoint.
     */
    public ArchiverStatus status() {
        return status;
    }

    private void publishStatusEverySecond() {
        if (status == ArchiverStatus.NONE || System.nanoTime() - lastStatusNanos >= STATUS_INTERVAL.toNanos()) {
            publishStatus();
        }
    }

    /** On the loop's thread, the consumer's: positions and lags come from its last fetch responses, no request. */
    private void publishStatus() {
        lastStatusNanos = System.nanoTime();
        long done = recordsDoneReleased;
        Map<String, Long> lag = new TreeMap<>();
        for (Map.Entry<TopicPartition, Long> e : startPositions.entrySet()) {
            TopicPartition tp = e.getKey();
            done += consumer.position(tp) - e.getValue();
            OptionalLong l = consumer.currentLag(tp);
            if (l.isPresent()) {
                lag.merge(tp.topic(), l.getAsLong(), Long::sum);
            }
        }
        long blocks = writer.blocksSeen();
        long samples = writer.samplesSeen();
        Long samplesLag = lag.get(Topics.SAMPLES);
        long lagSamples = samplesLag == null || (samplesLag > 0 && blocks == 0) ? -1
                : Math.round(samplesLag * (blocks == 0 ? 0 : (double) samples / blocks));
        double lagSeconds;
        long sealedUs = writer.latestSealedAtUs();
        if (samplesLag != null && samplesLag == 0) {
            lagSeconds = 0;
        } else if (samplesLag == null || sealedUs <= 0) {
            lagSeconds = -1;
        } else {
            lagSeconds = Math.max(0, System.currentTimeMillis() - sealedUs / 1000) / 1000.0;
        }
        status = new ArchiverStatus(done, samples, blocks, writer.filesWritten(), writer.corruptRecords(), lag,
                lagSamples, lagSeconds);
    }

    /** Tells the listener how far the archiver is; {@code recordsTotal} -1 when archiving continuously. */
    private void report(long recordsTotal) {
        long done = recordsDoneReleased;
        long lag = -1;
        for (Map.Entry<TopicPartition, Long> e : startPositions.entrySet()) {
            TopicPartition tp = e.getKey();
            done += consumer.position(tp) - e.getValue();
            if (tp.topic().equals(Topics.SAMPLES)) {
                // from the last fetch response: no request to the broker
                OptionalLong l = consumer.currentLag(tp);
                if (l.isPresent()) {
                    lag = Math.max(lag, 0) + l.getAsLong();
                }
            }
        }
        long blocks = writer.blocksSeen();
        ArchiveProgress p = new ArchiveProgress(writer.samplesSeen(), done, recordsTotal, lag,
                blocks == 0 ? 0 : (double) writer.samplesSeen() / blocks, writer.latestSealedAtUs(),
                Duration.ofNanos(System.nanoTime() - consumingSinceNanos), System.currentTimeMillis());
        try {
            progress.progress(p);
        } catch (RuntimeException e) {
            LOG.warn("the progress listener failed: {}", e.toString());
        }
    }

    private ArchiveSummary summary(long t0) {
        ArchiveSummary s = writer.summary(Duration.ofNanos(System.nanoTime() - t0));
        LOG.info("archived {} files, rows {}, {} blocks, {} samples, {} undecodable records; block check: {}",
                s.filesWritten(), s.rowsByDataset(), s.blocksSeen(), s.samplesSeen(), s.corruptRecords(),
                s.blockChecks().isEmpty() ? "no runs touched" : s.blocksConsistent() ? "every block exactly once" : s.blockChecks());
        return s;
    }

    /** The archiver's Kafka properties an admin client knows (security settings), and the bootstrap servers. */
    private static Properties adminProperties(ArchiverConfig config) {
        Properties p = new Properties();
        config.kafkaProperties().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, config.kafkaProperties().getOrDefault(
                ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-archiver") + "-admin");
        return p;
    }

    private static Properties consumerProperties(ArchiverConfig config) {
        Properties p = new Properties();
        p.putAll(config.kafkaProperties());
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "tailstream-archiver");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the aggregator writes windows transactionally: never archive an aborted window
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // Fetch responses under half a G1 region of the smallest heaps (1 MiB regions up to 2 GiB of heap): a larger
        // response is a humongous allocation, and each of those starts a garbage collection. A record batch larger
        // than the limits (sample blocks may reach the topic's 8 MB record limit) is still fetched whole, alone.
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(FETCH_BYTES));
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(FETCH_BYTES));
        p.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, METADATA_MAX_AGE_MS);
        // a killed archiver's partitions go to the others after this long (heartbeats come from the consumer's own
        // thread, so long flushes do not count: those are bounded by max.poll.interval.ms)
        if (!"consumer".equalsIgnoreCase(String.valueOf(p.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG)))) {
            // the classic protocol's client setting; under group.protocol=consumer the broker decides it
            p.putIfAbsent(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
        }
        return p;
    }
}
