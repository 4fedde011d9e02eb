package io.tailstream.infra.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.TestServices;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Prometheus's own checker on {@code infra/deploy/prometheus/}: the configuration and the alert rules are valid, and
 * the rules' unit tests ({@code alerts-test.yml}) pass, i.e. each alert fires on the series that should raise it.
 * Needs {@code promtool} on the PATH (Debian: {@code apt-get install prometheus}; {@code .ci/run} installs it), see
 * {@link TestServices}.
 */
class PromtoolIntegrationTest {

    static final Path DIR = Path.of("deploy", "prometheus");
    private static Path promtool;

    @BeforeAll
    static void findPromtool() {
        promtool = onPath("promtool").orElse(null);
    }

    @Test
    void checkConfig() throws Exception {
        String out = promtool("check", "config", "prometheus.yml");
        assertThat(out).contains("SUCCESS");
    }

    @Test
    void checkRules() throws Exception {
        String out = promtool("check", "rules", "alerts.yml");
        assertThat(out).contains("SUCCESS");
    }

    @Test
    void testRules_everyAlertFiresOnItsSeries() throws Exception {
        String out = promtool("test", "rules", "alerts-test.yml");
        assertThat(out).contains("SUCCESS");
    }

    /** Runs promtool in the rules' folder (the configuration names alerts.yml relative to itself); exit 0 or fail. */
    private static String promtool(String... args) throws IOException, InterruptedException {
        if (promtool == null) {
            throw TestServices.missing(TestServices.Service.PROMTOOL, "promtool on the PATH to check the Prometheus"
                    + " configuration and alert rules (Debian: apt-get install prometheus; .ci/run installs it)");
        }
        List<String> command = new java.util.ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ":\n" + out).isZero();
        return out;
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve(name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
