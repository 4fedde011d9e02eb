package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition changing hands between two archive writers of one directory, as a group rebalance does after the
 * first owner died with files published but not committed: the second owner, with other row limits, deletes the
 * first one's temporary files of that partition only, writes nothing short of the first owner's file boundaries,
 * and rewrites those files under the same names, so no range overlaps another.
 */
class ArchiveWriterHandoverTest {

    private static final TopicPartition P0 = new TopicPartition(Topics.SAMPLES, 0);
    private static final TopicPartition P1 = new TopicPartition(Topics.SAMPLES, 1);

    @TempDir
    Path archive;

    @Test
    void nextOwner_deletesOnlyThatPartitionsTemporaries_andRepeatsUncommittedBoundaries() throws Exception {
        SyntheticRun run = new SyntheticRun("handover", 3, List.of("pa"), List.of(
                new SyntheticRun.StepSpec("t1", "oltp_point_select", 4, 1, 1, 200, 1800)), 2_000, 1,
                1_760_000_000_000L);
        List<byte[]> blocks = run.sampleRecords.stream().map(SyntheticRun.Rec::value).toList();
        assertThat(blocks.size()).isGreaterThan(40);

        // the first owner commits its first flush only (the later commits are lost), then dies mid-file
        List<Map<TopicPartition, OffsetAndMetadata>> commits = new ArrayList<>();
        ArchiveWriter first = new ArchiveWriter(archive, 700, 64, commits::add);
        first.addPartition(P0, 0);
        first.addPartition(P1, 0);
        int diedAt = blocks.size() * 3 / 4;
        for (int i = 0; i < diedAt; i++) {
            first.accept(new ConsumerRecord<>(P0.topic(), 0, i, null, blocks.get(i)));
        }
        for (int i = 0; i < 5; i++) {
            first.accept(new ConsumerRecord<>(P1.topic(), 1, i, null, blocks.get(i)));
        }
        // the files it handed to its encoder thread are in place when it dies
        first.awaitPublished();
        assertThat(commits).hasSizeGreaterThan(2);
        long committed = commits.get(0).get(P0).offset();
        List<String> firstFiles = sourceFiles();
        assertThat(firstFiles).hasSizeGreaterThan(2);
        assertThat(temporaries("p0")).isEqualTo(1);
        assertThat(temporaries("p1")).isEqualTo(1);

        // the next owner of p0 only
        List<Map<TopicPartition, OffsetAndMetadata>> nextCommits = new ArrayList<>();
        try (ArchiveWriter next = new ArchiveWriter(archive, 100_000, 1 << 20, nextCommits::add)) {
            next.addPartition(P0, committed);
            assertThat(temporaries("p0")).as("the dead owner's temporary file of p0").isZero();
            assertThat(temporaries("p1")).as("another owner's temporary file of p1").isEqualTo(1);
            long boundary = ArchiveLayout.parseSourceFileName(firstFiles.get(1)).orElseThrow().toOffset();
            assertThat(next.replayEnd(P0)).isGreaterThan(boundary);

            // a roll-interval flush short of the next boundary writes and commits nothing
            for (long i = committed; i < boundary; i++) {
                next.accept(new ConsumerRecord<>(P0.topic(), 0, i, null, blocks.get((int) i)));
            }
            next.flushAll();
            assertThat(nextCommits).isEmpty();
            assertThat(sourceFiles()).isEqualTo(firstFiles);

            for (long i = boundary; i < blocks.size(); i++) {
                next.accept(new ConsumerRecord<>(P0.topic(), 0, i, null, blocks.get((int) i)));
            }
            next.flushAll();
            assertThat(nextCommits.get(nextCommits.size() - 1).get(P0).offset()).isEqualTo(blocks.size());
        }
        first.removePartitions(List.of(P1));
        first.close();

        List<String> files = sourceFiles();
        assertThat(files).containsAll(firstFiles);
        long expectedFrom = 0;
        for (String f : files) {
            ArchiveLayout.SourceRange r = ArchiveLayout.parseSourceFileName(f).orElseThrow();
            assertThat(r.fromOffset()).as("ranges follow each other without overlap: %s", files)
                    .isEqualTo(expectedFrom);
            expectedFrom = r.toOffset() + 1;
        }
        assertThat(expectedFrom).isEqualTo(blocks.size());
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT (producer_id, block_seq, start_us))"
                     + " FROM samples")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(run.rows.size());
            assertThat(rs.getLong(2)).isEqualTo(run.rows.size());
        }
    }

    /** Names of the samples files of p0, sorted (by first offset). */
    private List<String> sourceFiles() {
        return ArchiveLayout.runFiles(archive).stream()
                .filter(p -> p.getParent().getParent().getFileName().toString().equals(ArchiveLayout.SAMPLES))
                .map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")).sorted().toList();
    }

    private long temporaries(String partition) {
        return ArchiveLayout.runFiles(archive).stream().map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(ArchiveLayout.TMP_SUFFIX))
                .filter(n -> (Topics.SAMPLES + "-" + partition).equals(ArchiveLayout.temporaryPartitionTag(n)))
                .count();
    }
}
