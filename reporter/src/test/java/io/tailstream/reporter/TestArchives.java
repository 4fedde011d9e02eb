package io.tailstream.reporter;

import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.ArchiveWriter;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
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

    /** Every row of a query over the archive's datasets, columns in order. */
    public static List<List<Object>> rows(Path archive, String sql) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            List<List<Object>> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }
}
