package io.tailstream.reporter;

import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Writes archives from synthetic records without a broker (offsets numbered per partition from 0). */
public final class TestArchives {

    private TestArchives() {}

    public static ArchiveSummary write(Path archive, List<SyntheticRun.Rec> records) {
        return write(archive, records, 1_000_000);
    }

    public static ArchiveSummary write(Path archive, List<SyntheticRun.Rec> records, int rollRows) {
        StreamingArchive sink = new StreamingArchive(archive, rollRows);
        try (sink) {
            records.forEach(sink);
        }
        return sink.summary();
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
