package io.tailstream.reporter.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The column encoders against parquet-java's per-value column writers on the same rows: DuckDB reads the same values row by row, the row groups carry the same statistics, and the files are no
 * larger. Rows come in a shuffled order, as the archiver hands the encoders a sort order over its buffer.
 */
class ColumnEncodersTest {

    record R(int a, String s, long seq, long ts, long lat, boolean hasOpt, long opt, boolean b) {}

    private static final TableSchema<R> SCHEMA = TableSchema.<R>builder("t")
            .int32("a", R::a)
            .string("s", R::s)
            .int64("seq", R::seq)
            .int64Sorted("ts", R::ts)
            .int64("lat", R::lat)
            .optionalInt64Sorted("opt", R::hasOpt, R::opt)
            .bool("b", R::b)
            .build();

    @TempDir
    Path dir;

    /**
     * @param rows       rows in the file, around page edges (20,000 rows a page)
     * @param distinct   {@code lat} values drawn uniformly from this many; 0: from a range that grows with the row
     *                   number, so the first page's dictionary pays and the chunk's passes 1 MiB (131,072 distinct
     *                   values) half-way
     * @param rowGroups  row groups the rows are split into
     * @param openLoopPct share of rows with an {@code opt} value (0: the column is all null; 100: never null)
     */
    @ParameterizedTest
    @CsvSource({
        "1, 1, 1, 0",
        "7, 3, 1, 100",
        "19999, 50, 1, 50",
        "20000, 20000, 1, 0",
        "20001, 400, 2, 100",
        "65000, 30000, 3, 30",
        "300000, 1000000, 1, 0",
        "400000, 0, 1, 0",
        "120000, 6, 1, 100",
    })
    void encoders_sameRowsAsParquetJava_sameStatisticsNoLargerFile(int rows, int distinct, int rowGroups,
                                                                   int openLoopPct) throws Exception {
        Random random = new Random(rows * 31L + distinct);
        List<R> source = rows(random, rows, distinct, openLoopPct);
        int[] order = shuffled(random, rows);
        Path reference = dir.resolve("reference.parquet");
        Path encoded = dir.resolve("encoded.parquet");
        int[] groupEnds = groupEnds(rows, rowGroups);
        writeReference(reference, source, order, groupEnds);
        writeEncoded(encoded, source, order, groupEnds);

        assertThat(readRows(encoded)).hasSize(rows).isEqualTo(readRows(reference));
        assertThat(statistics(encoded)).isEqualTo(statistics(reference));
        assertThat(rowGroupSizes(encoded)).isEqualTo(rowGroupSizes(reference));
        long referenceBytes = Files.size(reference);
        long encodedBytes = Files.size(encoded);
        assertThat(encodedBytes).as("encoded %d bytes, parquet-java %d", encodedBytes, referenceBytes)
                .isLessThanOrEqualTo(referenceBytes + referenceBytes / 50 + 512);
        if (distinct == 0) {
            assertThat(encodings(encoded, "lat")).contains("RLE_DICTIONARY", "DELTA_BINARY_PACKED");
        }
    }

    private static List<R> rows(Random random, int rows, int distinct, int openLoopPct) {
        List<R> out = new ArrayList<>(rows);
        String[] names = {"producer-a", "producer-b", "ünïcode-∑"};
        long ts = 1_750_000_000_000_000L;
        long seq = 0;
        for (int i = 0; i < rows; i++) {
            ts += random.nextInt(50);
            if (random.nextInt(1000) == 0) {
                seq++;
            }
            boolean hasOpt = random.nextInt(100) < openLoopPct;
            out.add(new R(i / 25_000 - 1, names[(i / 9_000 + random.nextInt(50) / 49) % names.length], seq, ts,
                    random.nextInt(distinct > 0 ? distinct : 1 + i * 2 / 3)
                            + (random.nextInt(100) == 0 ? Long.MAX_VALUE / 2 : 0),
                    hasOpt, ts - random.nextInt(1_000), i % 70_000 < 7_000));
        }
        return out;
    }

    /** A permutation that moves each row at most a thousand places, as the archiver's sort does blocks' rows. */
    private static int[] shuffled(Random random, int rows) {
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        for (int from = 0; from < rows; from += 1000) {
            int to = Math.min(rows, from + 1000);
            for (int i = to - 1; i > from; i--) {
                int j = from + random.nextInt(i - from + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        return order;
    }

    private static int[] groupEnds(int rows, int groups) {
        int[] ends = new int[groups];
        for (int g = 0; g < groups; g++) {
            ends[g] = (int) ((long) rows * (g + 1) / groups);
        }
        return ends;
    }

    /** The rows through parquet-java's per-value column writers, with the encodings the table schema asks for. */
    private static void writeReference(Path file, List<R> source, int[] order, int[] groupEnds) throws IOException {
        ParquetProperties.Builder b = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding(true);
        SCHEMA.noDictionaryColumns().forEach(c -> b.withDictionaryEncoding(c, false));
        ParquetProperties props = b.build();
        MessageType schema = SCHEMA.messageType();
        HadoopFreeCodecFactory codecs = new HadoopFreeCodecFactory();
        ParquetFileWriter fw = new ParquetFileWriter(new LocalOutputFile(file), schema,
                ParquetFileWriter.Mode.OVERWRITE, 128L * 1024 * 1024, 0, null, props);
        fw.start();
        int k = 0;
        for (int end : groupEnds) {
            ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(codecs.getCompressor(
                    CompressionCodecName.ZSTD), schema, new HeapByteBufferAllocator(),
                    props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled());
            ColumnWriteStore columns = props.newColumnWriteStore(schema, pages, pages);
            List<ColumnWriter> w = schema.getColumns().stream().map(columns::getColumnWriter).toList();
            int rows = end - k;
            for (; k < end; k++) {
                R r = source.get(order[k]);
                w.get(0).write(r.a(), 0, 0);
                w.get(1).write(Binary.fromString(r.s()), 0, 0);
                w.get(2).write(r.seq(), 0, 0);
                w.get(3).write(r.ts(), 0, 0);
                w.get(4).write(r.lat(), 0, 0);
                if (r.hasOpt()) {
                    w.get(5).write(r.opt(), 0, 1);
                } else {
                    w.get(5).writeNull(0, 0);
                }
                w.get(6).write(r.b(), 0, 0);
                columns.endRecord();
            }
            fw.startBlock(rows);
            columns.flush();
            pages.flushToFileWriter(fw);
            fw.endBlock();
            columns.close();
            pages.close();
        }
        fw.end(Map.of());
        codecs.release();
    }

    private static void writeEncoded(Path file, List<R> source, int[] order, int[] groupEnds) throws IOException {
        int n = source.size();
        int[] a = new int[n];
        int[] s = new int[n];
        List<String> names = new ArrayList<>();
        long[] seq = new long[n];
        long[] ts = new long[n];
        long[] lat = new long[n];
        boolean[] hasOpt = new boolean[n];
        long[] opt = new long[n];
        boolean[] b = new boolean[n];
        for (int i = 0; i < n; i++) {
            R r = source.get(i);
            a[i] = r.a();
            if (!names.contains(r.s())) {
                names.add(r.s());
            }
            s[i] = names.indexOf(r.s());
            seq[i] = r.seq();
            ts[i] = r.ts();
            lat[i] = r.lat();
            hasOpt[i] = r.hasOpt();
            opt[i] = r.opt();
            b[i] = r.b();
        }
        Set<String> noDictionary = SCHEMA.noDictionaryColumns();
        try (ColumnFileWriter w = ColumnFileWriter.open(file, SCHEMA.messageType())) {
            LongColumnEncoder ea = new LongColumnEncoder(w.column(0), !noDictionary.contains("a"));
            StringColumnEncoder es = new StringColumnEncoder(w.column(1));
            LongColumnEncoder eseq = new LongColumnEncoder(w.column(2), !noDictionary.contains("seq"));
            LongColumnEncoder ets = new LongColumnEncoder(w.column(3), !noDictionary.contains("ts"));
            LongColumnEncoder elat = new LongColumnEncoder(w.column(4), !noDictionary.contains("lat"));
            LongColumnEncoder eopt = new LongColumnEncoder(w.column(5), !noDictionary.contains("opt"));
            BooleanColumnEncoder eb = new BooleanColumnEncoder(w.column(6));
            int from = 0;
            for (int end : groupEnds) {
                int[] group = Arrays.copyOfRange(order, from, end);
                int rows = end - from;
                ea.write(w.pages(0), a, null, group, rows);
                es.write(w.pages(1), s, names.toArray(String[]::new), group, rows);
                eseq.write(w.pages(2), seq, null, group, rows);
                ets.write(w.pages(3), ts, null, group, rows);
                elat.write(w.pages(4), lat, null, group, rows);
                eopt.write(w.pages(5), opt, hasOpt, group, rows);
                eb.write(w.pages(6), b, group, rows);
                w.endRowGroup(rows);
                from = end;
            }
        }
    }

    private static List<List<Object>> readRows(Path file) throws SQLException {
        return query("SELECT a, s, seq, ts, lat, opt, b FROM read_parquet('" + file + "', file_row_number = true)"
                + " ORDER BY file_row_number");
    }

    private static List<List<Object>> statistics(Path file) throws SQLException {
        return query("SELECT row_group_id, path_in_schema, num_values, stats_min_value, stats_max_value,"
                + " stats_null_count FROM parquet_metadata('" + file + "') ORDER BY row_group_id, column_id");
    }

    private static List<List<Object>> rowGroupSizes(Path file) throws SQLException {
        return query("SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('" + file + "')"
                + " ORDER BY row_group_id");
    }

    private static Set<String> encodings(Path file, String column) throws SQLException {
        Set<String> out = new TreeSet<>();
        for (List<Object> row : query("SELECT encodings FROM parquet_metadata('" + file + "') WHERE path_in_schema = '"
                + column + "'")) {
            for (String e : row.get(0).toString().split(",")) {
                out.add(e.trim());
            }
        }
        return out;
    }

    private static List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }
}
