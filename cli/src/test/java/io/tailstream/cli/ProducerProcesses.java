package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.process.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Producer processes of the tests that share a run between several: producer {@code i} is a child JVM running
 * {@code tailstream} with the given arguments, its standard output in {@code out-i.json} and its console in
 * {@code err-i.txt} of the test's folder.
 */
final class ProducerProcesses {

    private ProducerProcesses() {}

    static Process start(Path dir, int i, String... args) throws IOException {
        return ChildJvm.of(Main.class).heap("256m").args(args).processBuilder()
                .redirectOutput(dir.resolve("out-" + i + ".json").toFile())
                .redirectError(dir.resolve("err-" + i + ".txt").toFile()).start();
    }

    /** Waits for every producer to end with status 0 and fails with its console otherwise. */
    static void awaitAll(Path dir, List<Process> producers) throws InterruptedException {
        for (int i = 0; i < producers.size(); i++) {
            assertThat(producers.get(i).waitFor(300, TimeUnit.SECONDS)).as("producer %d ends: %s", i,
                    output(dir, i)).isTrue();
            assertThat(producers.get(i).exitValue()).as("producer %d: %s", i, output(dir, i)).isZero();
        }
    }

    /** Producer {@code i}'s console so far, for the message of a failed assertion. */
    static String output(Path dir, int i) {
        try {
            return Files.readString(dir.resolve("err-" + i + ".txt"));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
