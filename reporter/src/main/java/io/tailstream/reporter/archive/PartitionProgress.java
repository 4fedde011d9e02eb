package io.tailstream.reporter.archive;

import io.tailstream.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far the {@link Archiver}'s consumer is through the partitions it owns: records consumed since each was
 * assigned (and of those released since), lags from the consumer's last fetch responses, and, when catching up, the
 * offset each partition is to reach and which have not. Publishes the {@link ArchiverStatus} and tells the
 * {@link Archiver.ProgressListener}.
 *
 * <p>Not thread safe: the archiving thread's (the consumer's), but for {@link #status()}, which any thread may read.
 */
final class PartitionProgress {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionProgress.class);

    /**
     * @param records    consumed since the start, all topics
     * @param lagByTopic per topic, the records not yet consumed of its partitions whose lag the consumer knows; a
     *                   topic is absent until one is known
     */
    private record Consumed(long records, Map<String, Long> lagByTopic) {}

    private final Consumer<?, ?> consumer;
    private final ArchiveWriter writer;
    private final Archiver.ProgressListener listener;
    /** Position of each assigned partition when it was assigned: what was consumed since is progress. */
    private final Map<TopicPartition, Long> startPositions = new HashMap<>();
    /**
     * Per owned partition, its lag in the consumer's last fetch response for it. The consumer forgets a partition's
     * lag when the partition is assigned again (a rebalance revokes and assigns it) until its next fetch; meanwhile the
     * status keeps this one rather than falling back to "unknown".
     */
    private final Map<TopicPartition, Long> lastLags = new HashMap<>();
    /** Lags of the partitions released by the last rebalance: kept for those it assigns back. */
    private final Map<TopicPartition, Long> releasedLags = new HashMap<>();
    /** Records consumed of partitions this instance no longer owns. */
    private long recordsDoneReleased;
    /** Catching up: records from the assigned partitions' start positions to their targets. */
    private long recordsTotal;
    /** Catching up: per partition, the offset to archive up to (its end offset at start, or at its assignment). */
    private final Map<TopicPartition, Long> targets = new HashMap<>();
    /** Catching up: owned partitions not yet consumed up to their target. */
    private final Set<TopicPartition> remaining = new HashSet<>();
    private boolean catchingUp;
    /** When a partition last moved or was assigned, for the no-progress check. */
    private long lastProgressNanos;
    private long consumingSinceNanos;
    private volatile ArchiverStatus status = ArchiverStatus.NONE;
    private long lastStatusNanos;

    /** @param writer the archive writer fed by {@code consumer}: what it decoded and wrote */
    PartitionProgress(Consumer<?, ?> consumer, ArchiveWriter writer, Archiver.ProgressListener listener) {
        this.consumer = consumer;
        this.writer = writer;
        this.listener = listener;
    }

    /** Catches up from now on: each partition of {@code endOffsets} is consumed up to its offset there. */
    void catchUpTo(Map<TopicPartition, Long> endOffsets) {
        catchingUp = true;
        targets.putAll(endOffsets);
    }

    /** Starts the clocks of the rate and of the no-progress check. */
    void startConsuming() {
        lastProgressNanos = System.nanoTime();
        consumingSinceNanos = lastProgressNanos;
    }

    /** Notes that a partition moved or was assigned. */
    void moved() {
        lastProgressNanos = System.nanoTime();
    }

    /** Since a partition last moved or was assigned. */
    Duration sinceMoved() {
        return Duration.ofNanos(System.nanoTime() - lastProgressNanos);
    }

    /**
     * Starts counting partitions just given to the writer, from their start positions. Catching up, a partition
     * already at its target is paused; one without a target gets its end offset now.
     */
    void assigned(Map<TopicPartition, Long> starts) {
        if (catchingUp) {
            List<TopicPartition> unknown = starts.keySet().stream().filter(tp -> !targets.containsKey(tp)).toList();
            if (!unknown.isEmpty()) {
                targets.putAll(consumer.endOffsets(unknown));
            }
        }
        for (TopicPartition tp : starts.keySet()) {
            Long lag = releasedLags.get(tp);
            if (lag != null) {
                lastLags.put(tp, lag);
            }
        }
        releasedLags.clear();
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
    }

    /** Keeps what was consumed of partitions this instance no longer owns, and stops waiting for them. */
    void released(Collection<TopicPartition> partitions) {
        releasedLags.clear();
        for (TopicPartition tp : partitions) {
            Long lag = lastLags.remove(tp);
            if (lag != null) {
                releasedLags.put(tp, lag);
            }
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

    /** Catching up: true once every owned partition is consumed up to its target. */
    boolean allReached() {
        return remaining.isEmpty();
    }

    /** Catching up: pauses the partitions that reached their targets since the last call; true if any did. */
    boolean pauseReached() {
        boolean any = false;
        for (var it = remaining.iterator(); it.hasNext(); ) {
            TopicPartition tp = it.next();
            if (consumer.position(tp) >= targets.get(tp)) {
                it.remove();
                consumer.pause(List.of(tp));
                any = true;
            }
        }
        return any;
    }

    /** Catching up: the positions of the partitions short of their targets, and the targets. */
    String positionsAndTargets() {
        Map<String, Long> positions = new TreeMap<>();
        remaining.forEach(tp -> positions.put(tp.toString(), consumer.position(tp)));
        return "positions " + positions + ", targets " + targets;
    }

    /** The offsets to archive up to, as far as known. */
    Map<TopicPartition, Long> targets() {
        return targets;
    }

    /**
     * What the archiver has done and how far behind it is, as last published (at most
     * {@link Archiver#STATUS_INTERVAL} old while it runs). Thread safe.
     */
    ArchiverStatus status() {
        return status;
    }

    /** Publishes the status if the last one is {@link Archiver#STATUS_INTERVAL} old. */
    void publishStatusEverySecond() {
        long sinceStatus = System.nanoTime() - lastStatusNanos;
        if (status == ArchiverStatus.NONE || sinceStatus >= Archiver.STATUS_INTERVAL.toNanos()) {
            publishStatus();
        }
    }

    /** Publishes the status now, from the consumer's last fetch responses. */
    void publishStatus() {
        lastStatusNanos = System.nanoTime();
        Consumed consumed = consumed();
        Map<String, Long> lag = consumed.lagByTopic();
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
        status = new ArchiverStatus(consumed.records(), samples, blocks, writer.filesWritten(),
                writer.corruptRecords(), lag, lagSamples, lagSeconds);
    }

    /** Tells the listener how far the archiver is: of the records total when catching up, with the lag otherwise. */
    void report() {
        long total = catchingUp ? recordsTotal : -1;
        Consumed consumed = consumed();
        Long samplesLag = consumed.lagByTopic().get(Topics.SAMPLES);
        long blocks = writer.blocksSeen();
        ArchiveProgress p = new ArchiveProgress(writer.samplesSeen(), consumed.records(), total,
                samplesLag == null ? -1 : samplesLag,
                blocks == 0 ? 0 : (double) writer.samplesSeen() / blocks, writer.latestSealedAtUs(),
                Duration.ofNanos(System.nanoTime() - consumingSinceNanos), System.currentTimeMillis());
        try {
            listener.progress(p);
        } catch (RuntimeException e) {
            LOG.warn("the progress listener failed: {}", e.toString());
        }
    }

    /**
     * On the loop's thread, the consumer's: positions and lags come from its last fetch responses, no request; a
     * partition whose lag the consumer does not know now counts with its last known one ({@link #lastLags}).
     */
    private Consumed consumed() {
        long done = recordsDoneReleased;
        Map<String, Long> lag = new TreeMap<>();
        for (Map.Entry<TopicPartition, Long> e : startPositions.entrySet()) {
            TopicPartition tp = e.getKey();
            done += consumer.position(tp) - e.getValue();
            OptionalLong l = consumer.currentLag(tp);
            if (l.isPresent()) {
                lastLags.put(tp, l.getAsLong());
            }
            Long known = lastLags.get(tp);
            if (known != null) {
                lag.merge(tp.topic(), known, Long::sum);
            }
        }
        return new Consumed(done, lag);
    }

    /** The consumer's position of a partition it may no longer own (then {@code fallback}). */
    private long safePosition(TopicPartition tp, long fallback) {
        try {
            return consumer.position(tp, Duration.ZERO);
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
