package io.tailstream.reporter.parquet;

import java.nio.file.Path;

/**
 * Run by {@link HadoopFreeWriterIntegrationTest} in a JVM whose class path has no Hadoop jar: writes a small ZSTD file and
 * exits 0, or exits 3 if Hadoop is on the class path after all (the test would prove nothing).
 */
public final class HadoopFreeWriterMain {

    private HadoopFreeWriterMain() {}

    public static void main(String[] args) throws Exception {
        try {
            Class.forName("org.apache.hadoop.conf.Configuration");
            System.err.println("Hadoop is on the class path");
            System.exit(3);
        } catch (ClassNotFoundException expected) {
            System.err.println("no Hadoop on the class path, as intended: " + expected.getMessage());
        }
        TableSchema<long[]> schema = TableSchema.<long[]>builder("t")
                .int64Sorted("ts", r -> r[0])
                .int64("v", r -> r[1])
                .optionalString("s", r -> r[1] % 2 == 0 ? "even" : null)
                .build();
        try (ParquetTableWriter<long[]> w = ParquetTableWriter.open(Path.of(args[0]), schema)) {
            for (long i = 0; i < 1000; i++) {
                w.write(new long[] {1_000_000 + i * 10, i * i});
            }
        }
    }
}
