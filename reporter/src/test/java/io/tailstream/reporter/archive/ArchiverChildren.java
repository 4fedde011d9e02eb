package io.tailstream.reporter.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

/** What the tests that run archivers in child JVMs share: starting one, and looking at the archive it left. */
final class ArchiverChildren {

    private ArchiverChildren() {}

    /** Starts {@link ArchiverChildMain} (256 MB heap, C1 only) writing files of {@code rows} rows; output to log. */
    static Process start(String bootstrap, Path archive, String group, int rows, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.tailstream=info",
                "-cp", System.getProperty("java.class.path"), ArchiverChildMain.class.getName(),
                bootstrap, archive.toString(), group, String.valueOf(rows));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Temporary files anywhere in the archive. */
    static long temporaries(Path archive) throws IOException {
        if (!Files.isDirectory(archive)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(archive)) {
            return files.filter(f -> f.getFileName().toString().endsWith(ArchiveLayout.TMP_SUFFIX)).count();
        }
    }

    static long longOf(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
