package io.tailstream.reporter.archive;

import io.tailstream.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
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
 * <p>One archiver per archive directory and consumer group: it assigns itself every partition of the six topics
 * (no group rebalancing), so several archivers on one group would write the same ranges.
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
    private static final Duration REFRESH_PARTITIONS = Duration.ofSeconds(10);
    /** How often catching up reports done/total, rate and ETA. */
    public static final Duration CATCH_UP_PROGRESS_INTERVAL = Duration.ofSeconds(5);
    /** How often continuous archiving reports its lag. */
    public static final Duration CONTINUOUS_PROGRESS_INTERVAL = Duration.ofSeconds(30);
    /** How often the loop publishes {@link #status()}. */
    public static final Duration STATUS_INTERVAL = Duration.ofSeconds(1);

    private final ArchiverConfig config;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ArchiveWriter writer;
    private final ProgressListener progress;
    /** Position of each assigned partition when it was assigned: what was consumed since is progress. */
    private final Map<TopicPartition, Long> startPositions = new HashMap<>();
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
        this.writer = new ArchiveWriter(config.archiveDir(), config.rollRows(), config.rowGroupRows(),
                consumer::commitSync);
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

    /** See {@link #archiveUntilCaughtUp(String, Path)}. Call at most once per archiver. */
    public ArchiveSummary runUntilCaughtUp() {
        long t0 = System.nanoTime();
        running = true;
        try {
            Set<TopicPartition> assigned = refreshAssignment();
            Map<TopicPartition, Long> ends = consumer.endOffsets(assigned);
            Set<TopicPartition> remaining = new HashSet<>();
            for (TopicPartition tp : assigned) {
                if (consumer.position(tp) < ends.get(tp)) {
                    remaining.add(tp);
                } else {
                    consumer.pause(List.of(tp));
                }
            }
            LOG.info("archiving {} partitions with new records up to end offsets {}", remaining.size(), ends);
            long recordsTotal = 0;
            for (TopicPartition tp : assigned) {
                recordsTotal += Math.max(0, ends.get(tp) - startPositions.get(tp));
            }
            long lastProgress = System.nanoTime();
            consumingSinceNanos = lastProgress;
            long lastReport = lastProgress;
            while (!remaining.isEmpty() && !closing) {
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
                    if (consumer.position(tp) >= ends.get(tp)) {
                        it.remove();
                        consumer.pause(List.of(tp));
                        moved = true;
                    }
                }
                if (moved) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > NO_PROGRESS_TIMEOUT.toNanos()) {
                    Map<String, Long> positions = new TreeMap<>();
                    remaining.forEach(tp -> positions.put(tp.toString(), consumer.position(tp)));
                    throw new IllegalStateException("archiver made no progress for " + NO_PROGRESS_TIMEOUT
                            + " at positions " + positions + ", end offsets " + ends + " ("
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
            refreshAssignment();
            long lastFlush = System.nanoTime();
            long lastRefresh = lastFlush;
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
                if (now - lastRefresh >= REFRESH_PARTITIONS.toNanos()) {
                    // topics created after start (an external cluster provisioned later) are picked up here
                    refreshAssignment();
                    lastRefresh = now;
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
        consumer.close(Duration.ofSeconds(5));
        writer.close();
    }

    private Set<TopicPartition> refreshAssignment() {
        Set<TopicPartition> current = new HashSet<>(consumer.assignment());
        List<TopicPartition> added = new ArrayList<>();
        for (String topic : TOPICS) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic);
            if (infos == null) {
                continue;
            }
            for (PartitionInfo info : infos) {
                TopicPartition tp = new TopicPartition(topic, info.partition());
                if (current.add(tp)) {
                    added.add(tp);
                }
            }
        }
        if (added.isEmpty()) {
            return current;
        }
        added.sort(Comparator.comparing(TopicPartition::toString));
        consumer.assign(current);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(added));
        Map<TopicPartition, Long> beginning = consumer.beginningOffsets(added);
        for (TopicPartition tp : added) {
            OffsetAndMetadata c = committed.get(tp);
            long start = c != null ? c.offset() : beginning.get(tp);
            consumer.seek(tp, start);
            startPositions.put(tp, start);
            writer.addPartition(tp, start);
        }
        LOG.debug("assigned {} new partitions: {}", added.size(), added);
        return current;
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
        long done = 0;
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
        long done = 0;
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
        // sample blocks may reach the topic's 8 MB record limit
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        return p;
    }
}
