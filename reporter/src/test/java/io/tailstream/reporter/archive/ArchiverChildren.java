package io.tailstream.reporter.archive;

import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.reporter.SyntheticRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the tests that run archivers in child JVMs share: starting one, sending the traffic it archives, and looking
 * at the archive it left.
 */
final class ArchiverChildren {

    private ArchiverChildren() {}

    /** Starts {@link ArchiverChildMain} (256 MB heap, C1 only) writing files of {@code rows} rows; output to log. */
    static Process start(String bootstrap, Path archive, String group, int rows, Path log) {
        return ChildJvm.of(ArchiverChildMain.class).heap("256m")
                .jvmOptions("-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.log.io.tailstream=info")
                .args(bootstrap, archive.toString(), group, String.valueOf(rows)).start(log);
    }

    /** Sends and waits for every acknowledgement: what the archive must hold is exactly what landed. */
    static void send(KafkaProducer<byte[], byte[]> producer, List<SyntheticRun.Rec> records) {
        List<Future<?>> acks = new ArrayList<>();
        for (SyntheticRun.Rec r : records) {
            acks.add(producer.send(new ProducerRecord<>(r.topic(), r.partition(), r.key(), r.value())));
        }
        producer.flush();
        BacklogProducer.awaitAcks(acks);
    }

    /** Live traffic: the records in 40 slices, a slice every 100 ms. */
    static void sendSlowly(KafkaProducer<byte[], byte[]> producer, List<SyntheticRun.Rec> records) {
        int slice = Math.max(1, records.size() / 40);
        for (int from = 0; from < records.size(); from += slice) {
            send(producer, records.subList(from, Math.min(records.size(), from + slice)));
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Temporary files anywhere in the archive. */
    static long temporaries(Path archive) throws IOException {
        return countFiles(archive, ArchiveLayout.TMP_SUFFIX);
    }

    /**
     * Files under {@code dir} whose names end with {@code suffix}, while archivers may be writing there: a file
     * renamed or deleted between the walk's listing and its reading of the file's attributes makes the walk count
     * again.
     */
    static long countFiles(Path dir, String suffix) throws IOException {
        while (true) {
            if (!Files.isDirectory(dir)) {
                return 0;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                return files.filter(f -> f.getFileName().toString().endsWith(suffix)).count();
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
            }
        }
    }

    static long longOf(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
