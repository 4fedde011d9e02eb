package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.archive.ArchiveVerifier;
import io.tailstream.reporter.archive.BlockCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two local runs with the same {@code --out}: each starts its own broker, whose topics are new
 * incarnations with offsets from 0, and archives into the same {@code archive/}. The second run archives its own
 * records, each once, next to the first run's files, which it leaves as they are. A third run with the first run's
 * id is refused before it starts.
 */
class RunSameOutDirIntegrationTest {

    private static final Pattern RUN_ID = Pattern.compile("run (run-\\S+): ");

    @TempDir
    Path out;

    @Test
    void secondLocalRun_sameOutDir_archivesItsRecordsOnce_andKeepsTheFirstRunsFiles() throws Exception {
        String[] run = {"run", "--workload", "oltp_point_select", "--tables", "1", "--table-size", "100",
                "--threads", "1", "--warmup", "0s", "--duration", "500ms", "--report-interval", "0",
                "--out", out.toString()};
        RunFailuresIntegrationTest.Outcome first = RunFailuresIntegrationTest.execute(run);
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        Map<Path, byte[]> firstFiles = archiveFiles();

        RunFailuresIntegrationTest.Outcome second = RunFailuresIntegrationTest.execute(run);

        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(second.out()).containsPattern("samples: [\\d,]+ sent = [\\d,]+ aggregated = [\\d,]+ archived");
        List<BlockCheck> checks = ArchiveVerifier.checkBlocks(out.resolve("archive"), List.of(runId(first),
                runId(second)));
        assertThat(checks).extracting(BlockCheck::runId).containsOnly(runId(first), runId(second));
        assertThat(checks).allMatch(BlockCheck::ok);
        Map<Path, byte[]> after = archiveFiles();
        firstFiles.forEach((file, content) -> assertThat(after.get(file)).as("%s unchanged", file)
                .isEqualTo(content));

        // a run id the archive holds already is refused before anything runs
        String[] again = Stream.concat(Stream.of(run), Stream.of("--run-id", runId(first)))
                .toArray(String[]::new);
        RunFailuresIntegrationTest.Outcome third = RunFailuresIntegrationTest.execute(again);
        assertThat(third.exitCode()).as(third.out() + third.err()).isNotZero();
        assertThat(third.err()).contains("run " + runId(first) + " is already in " + out.resolve("archive"))
                .contains("another --run-id, or another --out");
        assertThat(third.out() + third.err()).doesNotContain("starting the Kafka broker");
        assertThat(archiveFiles()).as("archive untouched").containsOnlyKeys(after.keySet());
    }

    private static String runId(RunFailuresIntegrationTest.Outcome o) {
        Matcher m = RUN_ID.matcher(o.out());
        assertThat(m.find()).as(o.out()).isTrue();
        return m.group(1);
    }

    /** Every file of the archive and its content. */
    private Map<Path, byte[]> archiveFiles() throws IOException {
        Map<Path, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(out.resolve("archive"))) {
            for (Path p : paths.filter(Files::isRegularFile).toList()) {
                files.put(p, Files.readAllBytes(p));
            }
        }
        return files;
    }
}
