package io.tailstream.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What this JVM prints on {@code System.out} (and, if asked, {@code System.err} into the same text) while it is open,
 * for tests that run a command in process and read its console; {@link #close()} puts the streams back. The text
 * may be read while commands on other threads still print.
 */
final class ConsoleCapture implements AutoCloseable {

    private final PrintStream stdout = System.out;
    private final PrintStream stderr = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private ConsoleCapture(boolean withStderr) {
        PrintStream to = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(to);
        if (withStderr) {
            System.setErr(to);
        }
    }

    /** Captures {@code System.out}. */
    static ConsoleCapture stdout() {
        return new ConsoleCapture(false);
    }

    /** Captures {@code System.out} and {@code System.err}, interleaved as printed. */
    static ConsoleCapture stdoutAndStderr() {
        return new ConsoleCapture(true);
    }

    /** What {@code r} printed on {@code System.out}. */
    static String stdoutOf(Runnable r) {
        try (ConsoleCapture console = stdout()) {
            r.run();
            return console.text();
        }
    }

    /** Everything captured so far. */
    String text() {
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** Bytes captured so far: where the text of what is printed next starts. */
    int size() {
        return captured.size();
    }

    @Override
    public void close() {
        System.setOut(stdout);
        System.setErr(stderr);
    }
}
