package io.tailstream.reporter.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.process.ChildJvm;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer runs without Hadoop on the class path, as in the cli's shaded jar (Hadoop is {@code provided}). */
class HadoopFreeWriterIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void write_inJvmWithoutHadoopJars_producesFileDuckDbReads() throws Exception {
        String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Arrays.asList(testClassPath.split(File.pathSeparator));
        assertThat(entries).anyMatch(e -> e.contains("hadoop-client-api"));
        String withoutHadoop = entries.stream().filter(e -> !e.contains("/org/apache/hadoop/"))
                .collect(Collectors.joining(File.pathSeparator));
        Path out = dir.resolve("t.parquet");
        Path log = dir.resolve("child.log");
        Process p = ChildJvm.of(HadoopFreeWriterMain.class).classPath(withoutHadoop).args(out.toString()).start(log);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), sum(v), min(ts), max(ts), count(s) FROM read_parquet('"
                     + out + "')")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1000);
            assertThat(rs.getLong(2)).isEqualTo(999L * 1000 * 1999 / 6);
            assertThat(rs.getLong(3)).isEqualTo(1_000_000);
            assertThat(rs.getLong(4)).isEqualTo(1_009_990);
            assertThat(rs.getLong(5)).isEqualTo(500);
        }
    }
}
