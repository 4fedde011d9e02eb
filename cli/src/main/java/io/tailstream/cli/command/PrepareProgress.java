package io.tailstream.cli.command;

import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.LoadProgress;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The progress of {@code prepare}: rows loaded of the total, percent, rows/s (average since the start) and the time
 * left at that rate. On a terminal the line is redrawn in place every {@link #REDRAW}; elsewhere (a log, a pipe) a
 * plain line is printed every {@link #PLAIN_EVERY}. A last line with the exact count is printed by {@link #close()}.
 *
 * <p>Thread safe: loader threads count through {@link #rowsLoaded} (a {@link LongAdder}); drawing is synchronized.
 */
final class PrepareProgress implements LoadProgress, AutoCloseable {

    static final Duration REDRAW = Duration.ofMillis(250);
    static final Duration PLAIN_EVERY = Duration.ofSeconds(5);
    private static final int BAR_WIDTH = 30;

    private final long totalRows;
    private final PrintStream out;
    private final boolean inPlace;
    private final Clock clock;
    private final long startNanos;
    private final LongAdder rows = new LongAdder();
    private ScheduledExecutorService ticker;
    // guarded by this
    private long lastPlainNanos;
    private int drawnWidth;
    private boolean closed;

    /**
     * @param totalRows rows the prepare will insert in total
     * @param out       where the progress goes (stderr)
     * @param inPlace   redraw one line in place (a terminal) rather than print a line every few seconds
     */
    PrepareProgress(long totalRows, PrintStream out, boolean inPlace, Clock clock) {
        this.totalRows = totalRows;
        this.out = out;
        this.inPlace = inPlace;
        this.clock = clock;
        this.startNanos = clock.nanoTime();
        this.lastPlainNanos = startNanos;
    }

    /** Starts drawing from a daemon thread until {@link #close()}. */
    PrepareProgress start() {
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tailstream-prepare-progress");
            t.setDaemon(true);
            return t;
        });
        long period = (inPlace ? REDRAW : Duration.ofSeconds(1)).toMillis();
        ticker.scheduleAtFixedRate(this::tick, period, period, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void rowsLoaded(long n) {
        rows.add(n);
    }

    /** Rows counted so far. */
    long rows() {
        return rows.sum();
    }

    /** Draws the line if it is time to: in place at every call, plainly every {@link #PLAIN_EVERY}. */
    synchronized void tick() {
        if (closed) {
            return;
        }
        long now = clock.nanoTime();
        if (inPlace) {
            redraw(render(rows.sum(), now - startNanos));
        } else if (now - lastPlainNanos >= PLAIN_EVERY.toNanos()) {
            lastPlainNanos = now;
            out.println(render(rows.sum(), now - startNanos));
            out.flush();
        }
    }

    private void redraw(String line) {
        // pad over a longer previous line instead of relying on terminal escapes
        int pad = Math.max(0, drawnWidth - line.length());
        out.print("\r" + line + " ".repeat(pad));
        out.flush();
        drawnWidth = line.length();
    }

    /**
     * A message line (a workload's "Creating table ..."): above the bar on a terminal, so the bar stays the last
     * line; as is elsewhere.
     */
    synchronized void printAbove(String message) {
        if (inPlace && drawnWidth > 0) {
            out.print("\r" + " ".repeat(drawnWidth) + "\r");
            out.println(message);
            String line = render(rows.sum(), clock.nanoTime() - startNanos);
            drawnWidth = 0;
            redraw(line);
        } else {
            out.println(message);
            out.flush();
        }
    }

    /** A stream whose lines go through {@link #printAbove}. */
    PrintStream messages() {
        return new PrintStream(new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                if (b == '\n') {
                    printAbove(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    /** Stops drawing and prints the final line with the exact count. */
    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
            try {
                ticker.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            String line = render(rows.sum(), clock.nanoTime() - startNanos);
            if (inPlace) {
                redraw(line);
                out.println();
            } else {
                out.println(line);
            }
            out.flush();
        }
    }

    /**
     * {@code [###############---------------]  50.0%  5,000/10,000 rows  2,500 rows/s  ETA 2s}; at the end (all
     * rows) the ETA gives way to the elapsed time.
     */
    String render(long done, long elapsedNanos) {
        double fraction = totalRows == 0 ? 1 : Math.min(1.0, (double) done / totalRows);
        int filled = (int) Math.floor(fraction * BAR_WIDTH);
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        String tail;
        if (done >= totalRows) {
            tail = "in " + duration(seconds);
        } else if (rate > 0) {
            tail = "ETA " + duration((totalRows - done) / rate);
        } else {
            tail = "ETA --";
        }
        return String.format(Locale.ROOT, "[%s%s] %5.1f%%  %,d/%,d rows  %,.0f rows/s  %s", "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled), fraction * 100, done, totalRows, rate, tail);
    }

    /** {@code 9s}, {@code 1m05s}, {@code 2h03m}. */
    static String duration(double seconds) {
        long s = (long) Math.ceil(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /**
     * Whether this process's stderr is a terminal. Java 17 cannot ask about stderr itself: on Linux its file
     * descriptor is looked up in {@code /proc}; elsewhere a console on stdin and stdout stands in for it.
     */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }
}
