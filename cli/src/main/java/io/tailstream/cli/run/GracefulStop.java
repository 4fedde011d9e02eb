package io.tailstream.cli.run;

import io.tailstream.producer.BenchmarkRunner;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Turns Ctrl-C (SIGINT) or SIGTERM into a clean end of the run: the running step stops at its workers' next
 * transaction boundary and is marked {@code interrupted}, and the command goes on to aggregate, archive and report
 * what was measured before it exits. The JVM starts its shutdown on the signal; this hook holds it open until the
 * command says it is done (at most {@link #GRACE}), so nothing already measured is lost to a keystroke.
 *
 * <p>A signal that arrives before the run has started (while the local broker starts, say) is remembered: the
 * runner then starts no step. Thread safe.
 */
public final class GracefulStop implements AutoCloseable {

    /** How long the command may take to finish after a signal before the JVM exits anyway. */
    static final Duration GRACE = Duration.ofMinutes(5);

    private final PrintStream console;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private volatile String reason;
    private volatile BenchmarkRunner runner;

    private GracefulStop(PrintStream console) {
        this.console = console;
        this.hook = new Thread(this::onSignal, "tailstream-graceful-stop");
    }

    /** Installs the shutdown hook; {@link #close} removes it once the command is done. */
    public static GracefulStop install(PrintStream console) {
        GracefulStop stop = new GracefulStop(console);
        Runtime.getRuntime().addShutdownHook(stop.hook);
        return stop;
    }

    /** The runner to stop on a signal; stopped at once if a signal came first. */
    public void attach(BenchmarkRunner r) {
        this.runner = r;
        String why = reason;
        if (why != null) {
            r.stop(why);
        }
    }

    /** True once a signal asked the command to stop. */
    boolean requested() {
        return reason != null;
    }

    private void onSignal() {
        if (done.getCount() == 0) {
            return; // the command had finished: nothing to stop
        }
        reason = "stopped by a signal (Ctrl-C or SIGTERM)";
        console.println();
        console.println("stopping: the running step ends at its next transaction; what was measured is being"
                + " aggregated, archived and reported (kill -9 to abandon it)");
        BenchmarkRunner r = runner;
        if (r != null) {
            r.stop(reason);
        }
        try {
            if (!done.await(GRACE.toSeconds(), TimeUnit.SECONDS)) {
                console.println("stopping: not done after " + GRACE.toMinutes() + " minutes; exiting without it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        console.flush();
    }

    /** The command is done: a signal from now on exits at once. */
    @Override
    public void close() {
        console.flush();
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or ran: it returns now that done is counted down
        }
    }
}
