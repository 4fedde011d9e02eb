package io.tailstream.producer.driver;

import io.tailstream.producer.time.Clock;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Watches the workers of a step until every one stopped: prints the interval lines ({@link IntervalLines}), wakes
 * workers waiting for a connection once the step is over, and fails the step when no worker has had a connection for
 * the reconnect budget ({@link StepDriver#UNREACHABLE_AFTER} unless the driver was given another).
 *
 * <p>Thread safe (immutable); {@link #watch} runs on the thread that runs the step.
 */
final class StepWatcher {

    /** The reporter looks at the workers at least this often (step end, stop, connections). */
    static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Clock clock;
    private final PrintStream console;
    private final Duration unreachableAfter;

    /**
     * @param unreachableAfter how long no worker of a step may hold a connection before the step fails as
     *                         unreachable (the reconnect budget)
     */
    StepWatcher(Clock clock, PrintStream console, Duration unreachableAfter) {
        this.clock = clock;
        this.console = console;
        this.unreachableAfter = unreachableAfter;
    }

    /** Returns once every one of {@code threads} (running {@code workers}, in the same order) has ended. */
    void watch(StepRun run, List<Worker> workers, List<Thread> threads, long startNanos) {
        long intervalNanos = TimeUnit.SECONDS.toNanos(Math.max(1, run.spec.intervalSeconds()));
        IntervalLines lines = run.spec.intervalSeconds() > 0
                ? new IntervalLines(run.spec, workers, clock, console, startNanos) : null;
        long next = startNanos + intervalNanos;
        long noConnectionSince = -1;
        while (true) {
            long waitNanos = Math.min(next - clock.nanoTime(), WATCH_NANOS);
            if ((waitNanos > 0 && joinAll(threads, waitNanos)) || allDone(threads)) {
                run.faults.flush(clock.nanoTime(), true);
                return;
            }
            long nowNanos = clock.nanoTime();
            run.faults.flush(nowNanos, false);
            if (run.connected.get() > 0) {
                noConnectionSince = -1;
            } else if (noConnectionSince == -1) {
                noConnectionSince = nowNanos;
            } else if (nowNanos - noConnectionSince >= unreachableAfter.toNanos() && run.failure.get() == null) {
                run.fail("target '" + run.spec.targetName() + "' unreachable: " + run.lastConnectionError
                        + " (no worker had a connection for " + seconds(unreachableAfter) + ")", null);
            }
            if (run.stop || nowNanos - run.endNanos >= 0 || run.budgetUsed()) {
                for (int i = 0; i < workers.size(); i++) {
                    workers.get(i).wake(threads.get(i));
                }
            }
            if (nowNanos - next < 0) {
                continue;
            }
            next += intervalNanos;
            if (lines != null) {
                lines.print();
            }
        }
    }

    /** {@code 10 s}, {@code 1.5 s}. */
    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s",
                d.toMillis() / 1000.0);
    }

    private static boolean joinAll(List<Thread> threads, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return allDone(threads);
            }
            try {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return allDone(threads);
            }
        }
        return allDone(threads);
    }

    private static boolean allDone(List<Thread> threads) {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }
}
