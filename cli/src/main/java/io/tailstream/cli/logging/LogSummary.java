package io.tailstream.cli.logging;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.event.Level;

/**
 * Writes log lines, one line each ({@code 12:00:01.234 WARN SpoolingTransport - message}; a throwable adds its
 * message, its stack trace only with {@code TAILSTREAM_DEBUG=1}), and summarizes the libraries that warn once per
 * retry during an outage: the Kafka clients ({@code org.apache.kafka.clients}, e.g. NetworkClient's {@code
 * Connection to node 1 ... could not be established} every reconnect backoff), the connection pool
 * ({@code com.zaxxer.hikari}, e.g. {@code Connection ... marked as broken} per killed connection) and the
 * producer's round-trip probe of a target that is away ({@code health probe}), and the producer's spool, which
 * sends a control event again once per retry while Kafka is away ({@code spool}; its errors, such as blocks left
 * undelivered at exit, are never folded). Their first warning prints one line ({@code WARN Kafka client: <message>
 * (repeats are counted until they stop)}); the ones after it are counted; once none came for {@link #QUIET_NANOS},
 * or when the process ends, one line gives the count and the last message. Thread safe (synchronized; warnings
 * are rare).
 */
final class LogSummary {

    /** A burst of warnings ends when this long passes without another. */
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(5);

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    /** Library warnings summarized, by logger name prefix, with the name the lines give them. */
    private static final List<Family> FAMILIES = List.of(
            new Family("org.apache.kafka.clients", "Kafka client", Level.ERROR),
            new Family("com.zaxxer.hikari", "connection pool", Level.ERROR),
            // its round-trip probe fails once a second while a target is away
            new Family("io.tailstream.producer.health.ClientHealthMonitor", "health probe", Level.ERROR),
            // control events are sent again once per retry while Kafka is away; what is lost is an error, shown
            new Family("io.tailstream.producer.emit.SpoolingTransport", "spool", Level.WARN));

    private final Supplier<PrintStream> out;
    private final LongSupplier nanoTime;
    private final boolean debug;
    private final Map<String, Burst> bursts = new LinkedHashMap<>();
    private ScheduledExecutorService watcher;

    LogSummary(Supplier<PrintStream> out, LongSupplier nanoTime, boolean debug) {
        this.out = out;
        this.nanoTime = nanoTime;
        this.debug = debug;
    }

    /**
     * Lines on the stderr of the moment (looked up per line), bursts ended by a daemon thread and at exit.
     */
    static LogSummary toStderr() {
        LogSummary s = new LogSummary(() -> System.err, System::nanoTime,
                "1".equals(System.getenv("TAILSTREAM_DEBUG")));
        Runtime.getRuntime().addShutdownHook(new Thread(s::endAll, "tailstream-log-summary-exit"));
        return s;
    }

    /** One log call at {@code level} of logger {@code logger}. */
    synchronized void log(String logger, Level level, String message, Throwable throwable) {
        String family = family(logger, level);
        if (family != null && dropped(logger, message)) {
            return;
        }
        String text = throwable == null || debug ? message : message + " (" + oneLine(throwable) + ")";
        if (family == null) {
            print(level + " " + shortName(logger) + " - " + text, throwable);
            return;
        }
        long now = nanoTime.getAsLong();
        Burst b = bursts.get(family);
        if (b == null) {
            bursts.put(family, new Burst(now, text));
            print(level + " " + family + ": " + text + " (repeats are counted until they stop)", throwable);
            startWatcher();
        } else {
            b.count++;
            b.lastNanos = now;
            b.lastMessage = text;
            if (debug && throwable != null) {
                throwable.printStackTrace(out.get());
            }
        }
    }

    /**
     * Ends the bursts that had no warning for {@link #QUIET_NANOS}: one line each with the count, when there was
     * more than the first.
     */
    synchronized void endQuiet() {
        long now = nanoTime.getAsLong();
        bursts.entrySet().removeIf(e -> {
            if (now - e.getValue().lastNanos < QUIET_NANOS) {
                return false;
            }
            end(e.getKey(), e.getValue(), " for " + TimeUnit.NANOSECONDS.toSeconds(QUIET_NANOS) + " s now");
            return true;
        });
    }

    /** True while a burst of warnings is open (its end line not printed yet). */
    synchronized boolean bursting() {
        return !bursts.isEmpty();
    }

    /** Ends every burst (the process is ending). */
    synchronized void endAll() {
        bursts.forEach((family, b) -> end(family, b, " until exit"));
        bursts.clear();
    }

    private void end(String family, Burst b, String quiet) {
        if (b.count > 1) {
            print(String.format(Locale.ROOT, "WARN %s: %d warnings in %.1f s, none%s (last: %s)", family, b.count,
                    (b.lastNanos - b.firstNanos) / 1e9, quiet, b.lastMessage), null);
        }
    }

    private void startWatcher() {
        if (watcher == null) {
            watcher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tailstream-log-summary");
                t.setDaemon(true);
                return t;
            });
            watcher.scheduleWithFixedDelay(this::endQuiet, 500, 500, TimeUnit.MILLISECONDS);
        }
    }

    private void print(String line, Throwable throwable) {
        PrintStream ps = out.get();
        ps.println(LocalTime.now().format(TIME) + " " + line);
        if (debug && throwable != null) {
            throwable.printStackTrace(ps);
        }
        ps.flush();
    }

    /** The family whose lines of {@code level} from {@code logger} are summarized, or null: printed as they come. */
    private static String family(String logger, Level level) {
        for (Family f : FAMILIES) {
            if (logger.startsWith(f.loggerPrefix()) && level.toInt() <= f.mostSevereFolded().toInt()) {
                return f.name();
            }
        }
        return null;
    }

    /**
     * Kafka client warnings that say nothing to the user: metadata not yet there for a topic being created (Kafka
     * Streams at start), the pipeline's clients closing twice at shutdown, and an exactly-once producer retrying a
     * write that met its previous transaction still completing (CONCURRENT_TRANSACTIONS, which the client retries
     * until the transaction coordinator has finished; the aggregator commits every second while it works through a
     * backlog).
     */
    private static boolean dropped(String logger, String message) {
        return message != null && logger.startsWith("org.apache.kafka.clients.")
                && (message.contains("Error while fetching metadata")
                || message.contains("reported a recoverable issue") || message.contains("already been closed")
                || message.contains("retrying") && message.contains("Error: CONCURRENT_TRANSACTIONS"));
    }

    private static String shortName(String logger) {
        return logger.substring(logger.lastIndexOf('.') + 1);
    }

    private static String oneLine(Throwable t) {
        String msg = t.getMessage() == null ? "" : t.getMessage().strip();
        int nl = msg.indexOf('\n');
        return t.getClass().getSimpleName() + (msg.isEmpty() ? "" : ": " + (nl > 0 ? msg.substring(0, nl) : msg));
    }

    /**
     * Loggers whose repeated lines are summarized.
     *
     * @param mostSevereFolded lines of this level and milder are summarized, more severe ones printed each
     */
    private record Family(String loggerPrefix, String name, Level mostSevereFolded) {
    }

    /** A run of warnings of one family. */
    private static final class Burst {
        final long firstNanos;
        long lastNanos;
        int count = 1;
        String lastMessage;

        Burst(long nowNanos, String message) {
            firstNanos = nowNanos;
            lastNanos = nowNanos;
            lastMessage = message;
        }
    }
}
