package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code archive} with no broker at the bootstrap address fails within its connect timeout, with one line naming the
 * address and what was tried, exit 1, and writes nothing.
 */
class ArchiveBrokerDownTest {

    @TempDir
    Path dir;

    @Test
    void noBroker_failsWithinTheConnectTimeout_oneLineNamingTheAddress() throws Exception {
        int port;
        // a port nothing listens on: bound, then released
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String bootstrap = "127.0.0.1:" + port;
        long started = System.nanoTime();
        RunFailuresIntegrationTest.Outcome o = RunFailuresIntegrationTest.execute("archive", "--bootstrap-servers",
                bootstrap, "--archive", dir.resolve("archive").toString(), "--until-caught-up", "--connect-timeout",
                "3s");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

        assertThat(o.exitCode()).as(o.out() + o.err()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err().lines()).singleElement().asString()
                .startsWith("tailstream archive: error: cannot reach Kafka at " + bootstrap + ": no answer to a"
                        + " describe-cluster request within 3 s (")
                .endsWith("is the broker running and --bootstrap-servers right?");
        // the consumer's own default would have been a minute per call
        assertThat(seconds).as("seconds to fail").isLessThan(45);
        assertThat(dir.resolve("archive")).doesNotExist();
    }

    @Test
    void connectTimeoutOfZero_isRefused() {
        RunFailuresIntegrationTest.Outcome o = RunFailuresIntegrationTest.execute("archive", "--bootstrap-servers",
                "127.0.0.1:9", "--archive", dir.resolve("archive").toString(), "--connect-timeout", "0s");
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("--connect-timeout must be > 0");
    }
}
