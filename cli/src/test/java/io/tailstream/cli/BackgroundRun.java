package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * {@code tailstream run --plan} in the background of this JVM, its console (stdout and stderr) and picocli's error
 * stream captured, for tests that act on a target while a step runs. {@link #finish} or {@link #close()} puts the
 * console back.
 */
final class BackgroundRun implements AutoCloseable {

    private final ConsoleCapture console = ConsoleCapture.stdoutAndStderr();
    private final StringWriter err = new StringWriter();
    private final Path out;
    private final CompletableFuture<Integer> run;

    private BackgroundRun(Path plan, Path out, String runId) {
        this.out = out;
        CommandLine cl = Cli.commandLine();
        cl.setErr(new PrintWriter(err, true));
        run = CompletableFuture.supplyAsync(() -> cl.execute("run", "--plan", plan.toString(), "--out",
                out.toString(), "--run-id", runId));
    }

    /** Starts {@code run --plan plan --out out --run-id runId}. */
    static BackgroundRun start(Path plan, Path out, String runId) {
        return new BackgroundRun(plan, out, runId);
    }

    /** The run's output folder. */
    Path out() {
        return out;
    }

    /** The console so far. */
    String console() {
        return console.text();
    }

    /** The console and then picocli's error stream. */
    String text() {
        return console() + err;
    }

    /** Waits (at most 120 s) until an interval line of {@code threads} threads shows transactions. */
    void awaitTransactions(int threads) throws InterruptedException {
        Pattern tps = Pattern.compile("\\] thds: " + threads + " tps: ([0-9.]+)");
        await(() -> {
            Matcher m = tps.matcher(console());
            while (m.find()) {
                if (Double.parseDouble(m.group(1)) > 0) {
                    return true;
                }
            }
            return false;
        }, "transactions");
    }

    /** Waits (at most 120 s) for {@code condition}; the run must not end meanwhile. */
    void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            assertThat(run).as(text()).isNotDone();
            assertThat(System.nanoTime()).as(what + " within 120 s: " + text()).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Waits for the run's exit code, then puts the console back and prints what it captured. */
    int finish(long timeoutSeconds) throws Exception {
        try {
            return run.get(timeoutSeconds, TimeUnit.SECONDS);
        } finally {
            console.close();
            System.out.print(text());
        }
    }

    @Override
    public void close() {
        console.close();
    }
}
