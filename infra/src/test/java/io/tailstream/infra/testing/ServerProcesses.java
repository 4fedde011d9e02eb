package io.tailstream.infra.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the private database servers share: free ports, their programs run to the end, their files deleted. */
final class ServerProcesses {

    /** How long a server program (install, start, stop) may take. */
    static final long PROGRAM_TIMEOUT_SECONDS = 180;

    private ServerProcesses() {}

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Runs {@code cmd} to its end, its output appended to {@code log}; null if it exited 0, else what went wrong. */
    static String run(List<String> cmd, Path log) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!p.waitFor(PROGRAM_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", cmd) + ": no exit within " + PROGRAM_TIMEOUT_SECONDS + " s";
            }
            return p.exitValue() == 0 ? null : String.join(" ", cmd) + " exited " + p.exitValue() + ": " + tail(log);
        } catch (IOException e) {
            return String.join(" ", cmd) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return String.join(" ", cmd) + ": interrupted";
        }
    }

    /** The last lines of a log, on one line. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Deletes {@code dir} and everything in it. */
    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
