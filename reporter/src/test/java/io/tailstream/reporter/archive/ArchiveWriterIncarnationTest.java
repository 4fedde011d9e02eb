package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archive writers fed the records of one partition from two incarnations of its topic (the offsets start at 0 on
 * each): files record the incarnation they were read from, only the partition's own files (or files that record none)
 * count as an interrupted flush, and another incarnation's file is never replaced.
 */
class ArchiveWriterIncarnationTest {

    private static final TopicPartition P0 = new TopicPartition(Topics.SAMPLES, 0);
    private static final TopicIncarnation FIRST = new TopicIncarnation("cluster-a", "topic-a");
    private static final TopicIncarnation SECOND = new TopicIncarnation("cluster-b", "topic-b");

    @TempDir
    Path archive;

    private final List<byte[]> blocks = new SyntheticRun("incarnations", 7, List.of("pa"), List.of(
            new SyntheticRun.StepSpec("t1", "oltp_point_select", 4, 1, 1, 200, 800)), 1_000, 1, 1_760_000_000_000L)
            .sampleRecords.stream().map(SyntheticRun.Rec::value).toList();

    /** Archives every block into files of about {@code rollRows} rows, as read from {@code incarnation} (or none). */
    private void archiveAll(TopicIncarnation incarnation, int rollRows) {
        try (ArchiveWriter w = new ArchiveWriter(archive, rollRows, 1 << 16, offsets -> { })) {
            w.addPartitions(Map.of(P0, 0L), incarnation == null ? Map.of() : Map.of(P0.topic(), incarnation));
            for (int i = 0; i < blocks.size(); i++) {
                w.accept(new ConsumerRecord<>(P0.topic(), 0, i, null, blocks.get(i)));
            }
            w.flushAll();
        }
    }

    /** Where the next owner of the partition, reading {@code incarnation}, would stop re-archiving (-1: nowhere). */
    private long replayEnd(TopicIncarnation incarnation) {
        try (ArchiveWriter w = new ArchiveWriter(archive, 1_000, 1 << 16, offsets -> { })) {
            w.addPartitions(Map.of(P0, 0L), Map.of(P0.topic(), incarnation));
            return w.replayEnd(P0);
        }
    }

    @Test
    void filesRecordTheirIncarnation_inEverySourceDataset() throws Exception {
        archiveAll(FIRST, 1_000);

        List<Path> files = sourceFiles();
        assertThat(files).extracting(f -> f.getParent().getParent().getFileName().toString())
                .contains(ArchiveLayout.SAMPLES, ArchiveLayout.BLOCKS);
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            for (Path file : files) {
                assertThat(TopicIncarnation.ofFile(duckdb, file)).as(file.toString()).contains(FIRST);
            }
        }
    }

    @Test
    void addPartitions_countsOnlyFilesOfTheSameIncarnationOrOfNone_asAnInterruptedFlush() {
        archiveAll(FIRST, 1_000);
        assertThat(sourceFiles()).hasSizeGreaterThan(2);

        assertThat(replayEnd(FIRST)).isEqualTo(blocks.size());
        assertThat(replayEnd(SECOND)).isEqualTo(-1);
    }

    @Test
    void addPartitions_filesRecordingNoIncarnation_countAsThePartitionsOwn() {
        archiveAll(null, 1_000);

        assertThat(replayEnd(SECOND)).isEqualTo(blocks.size());
    }

    @Test
    void anotherIncarnation_sameRunAndOffsets_refusesToReplaceTheFirstOnesFile() throws Exception {
        archiveAll(FIRST, 1_000_000);
        Map<Path, byte[]> before = contents();

        assertThatThrownBy(() -> archiveAll(SECOND, 1_000_000)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to replace").hasMessageContaining(FIRST.toString());
        Map<Path, byte[]> after = contents();
        assertThat(after).containsOnlyKeys(before.keySet());
        before.forEach((file, content) -> assertThat(after.get(file)).as("%s unchanged", file).isEqualTo(content));
    }

    /** The published files of the samples partition, in every dataset. */
    private List<Path> sourceFiles() {
        List<Path> out = new ArrayList<>();
        for (Path file : ArchiveLayout.runFiles(archive)) {
            Optional<ArchiveLayout.SourceRange> r = ArchiveLayout.parseSourceFileName(file.getFileName().toString());
            if (r.isPresent() && r.get().topic().equals(P0.topic())) {
                out.add(file);
            }
        }
        return out;
    }

    private Map<Path, byte[]> contents() throws IOException {
        Map<Path, byte[]> out = new TreeMap<>();
        for (Path file : sourceFiles()) {
            out.put(file, Files.readAllBytes(file));
        }
        return out;
    }
}
