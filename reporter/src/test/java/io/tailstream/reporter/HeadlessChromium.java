package io.tailstream.reporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's {@code chromium}, headless, for the tests that open a generated page as a browser does. */
public final class HeadlessChromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private HeadlessChromium() {}

    /** Fails (or skips, when the developer said so) if Chromium is not installed. */
    public static void require() {
        if (!Files.isExecutable(CHROMIUM)) {
            throw TestServices.missing(TestServices.Service.CHROMIUM, "headless Chromium at " + CHROMIUM
                    + " (Debian: apt-get install chromium; .ci/run installs it)");
        }
    }

    /**
     * Opens the page in headless Chromium and returns the DOM after its scripts ran; asserts the browser wrote no
     * console message (no script error).
     *
     * @param work a folder for the browser's profile, log and output
     */
    public static String dumpDom(Path html, Path work, String name) throws Exception {
        Path log = work.resolve("chromium-" + name + ".log");
        Path dom = work.resolve("dom-" + name + ".html");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + work.resolve("profile-" + name), "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished within 90 s").isTrue();
        String stderr = Files.readString(log);
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(stderr.lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")).toList())
                .as("console messages").isEmpty();
        return Files.readString(dom);
    }
}
