package io.tailstream.reporter;

import io.tailstream.reporter.SyntheticRun.Rec;
import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.ArchiveWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Feeds records into the pipeline's own {@link ArchiveWriter} as the archiver would (offsets numbered per partition
 * from 0), without holding them: for archives too large to build as a list first.
 */
public final class StreamingArchive implements Consumer<Rec>, AutoCloseable {

    private final ArchiveWriter writer;
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private ArchiveSummary summary;

    public StreamingArchive(Path archive, int rollRows) {
        this.writer = new ArchiveWriter(archive, rollRows, offsets -> { });
    }

    @Override
    public void accept(Rec r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        long offset = next.computeIfAbsent(tp, k -> {
            writer.addPartition(k, 0);
            return 0L;
        });
        writer.accept(new ConsumerRecord<>(r.topic(), r.partition(), offset, r.key(), r.value()));
        next.put(tp, offset + 1);
    }

    /** What the writer did; set by {@link #close()}. */
    public ArchiveSummary summary() {
        return summary;
    }

    @Override
    public void close() {
        writer.flushAll();
        summary = writer.summary(Duration.ZERO);
        writer.close();
    }
}
