package io.tailstream.stress;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.process.ChildJvm;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the jcstress tests of this module in jcstress's {@code sanity} mode (a short run of every JIT mode it
 * tries) in a child JVM, and fails on any forbidden outcome or harness error. A longer run:
 * {@code java -cp ... org.openjdk.jcstress.Main -t io.tailstream.stress -m tough}.
 */
class SampleHandOverStressIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void releaseStoreHandOver_everyOutcomeAllowed() throws Exception {
        Path log = dir.resolve("jcstress.log");
        Process p = ChildJvm.of("org.openjdk.jcstress.Main")
                .args("-m", "sanity", "-t", "io\\.tailstream\\.stress\\..*Stress")
                .args("-r", dir.resolve("results").toString())
                .processBuilder().directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        boolean ended = p.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        assertThat(ended).as("jcstress ended within 10 minutes:%n%s", out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as(out)
                .contains("Failed tests: No matches.")
                .contains("Error tests: No matches.")
                // every test of the module ran (a test the harness did not find would pass silently)
                .contains("All remaining tests: 2 matching test results.")
                .containsPattern("Results: \\d+ planned; \\d+ passed, 0 failed, 0 soft errs, 0 hard errs\\)\\s*RUN RESULTS");
        File[] results = dir.resolve("results").toFile().listFiles();
        assertThat(results).as("jcstress results written").isNotEmpty();
    }
}
