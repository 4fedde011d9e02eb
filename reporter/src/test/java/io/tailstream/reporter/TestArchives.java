package io.tailstream.reporter;

import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.ArchiveWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** Writes archives from synthetic records without a broker (offsets numbered per partition from 0). */
public final class TestArchives {

    private TestArchives() {}

    public static ArchiveSummary write(Path archive, List<SyntheticRun.Rec> records) {
        return write(archive, records, 1_000_000);
    }

    public static ArchiveSummary write(Path archive, List<SyntheticRun.Rec> records, int rollRows) {
        Map<TopicPartition, Long> next = new HashMap<>();
        try (ArchiveWriter w = new ArchiveWriter(archive, rollRows, offsets -> { })) {
            for (SyntheticRun.Rec r : records) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                long offset = next.computeIfAbsent(tp, k -> {
                    w.addPartition(k, 0);
                    return 0L;
                });
                w.accept(new ConsumerRecord<>(r.topic(), r.partition(), offset, r.key(), r.value()));
                next.put(tp, offset + 1);
            }
            w.flushAll();
            return w.summary(Duration.ZERO);
        }
    }
}
