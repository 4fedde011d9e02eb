package io.tailstream.producer.server;

import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.event.Secrets;
import io.tailstream.schemas.event.ServerCounters;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the current target's own counters ({@link ServerCounterSource}) once per period while a step runs, and once
 * more when it starts and ends, on a connection of its own, and publishes each reading as a {@link ServerCounters}
 * event. A reading that fails (the server away, a query past its timeout) is published too, with its reason and no
 * values: a gap in the counters says so.
 *
 * <p>Every reading runs on the sampler's one daemon thread, so a server that does not answer delays the next reading,
 * never the step. Thread safe.
 */
public final class ServerCounterSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServerCounterSampler.class);

    /** How long {@link #noTarget} waits for a reading still running: its connection and queries time out by then. */
    static final Duration DRAIN = Duration.ofMillis(TargetConnections.CONNECTION_TIMEOUT_MS
            + TimeUnit.SECONDS.toMillis(CounterQueries.QUERY_TIMEOUT_SECONDS) + 1_000);

    private record Source(String name, DataSource connection, ServerCounterSource counters) {}

    private final String runId;
    private final SampleSink sink;
    private final Clock clock;
    private final ScheduledExecutorService thread;

    // written under this, read on the sampler thread
    private volatile Source source;
    private volatile int stepId;
    /** Only on the sampler thread: whether the last reading failed (one warning per streak of failures). */
    private boolean failing;

    /**
     * @param period  time between readings during a step (1 s in runs)
     * @param loadGen the load generator's threads: the sampler's is one of them
     */
    public ServerCounterSampler(String runId, SampleSink sink, Duration period, Clock clock, LoadGenThreads loadGen) {
        this.runId = runId;
        this.sink = sink;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tailstream-server-counters");
            t.setDaemon(true);
            loadGen.register(t);
            return t;
        });
        long ms = period.toMillis();
        thread.scheduleAtFixedRate(() -> {
            int step = stepId;
            Source s = source;
            if (step != 0 && s != null) {
                readSafely(s, step);
            }
        }, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * The target read from now on: its name in the plan, a connection pool of its own (one connection) and its
     * dialect.
     */
    public synchronized void target(String name, DataSource connection, Dialect dialect) {
        source = new Source(name, connection, ServerCounterSource.forDialect(dialect));
    }

    /**
     * No target from now on; returns once the readings asked for on the previous one (a step's last) have run
     * (or after {@link #DRAIN}), so its pool can be closed.
     */
    public synchronized void noTarget() {
        source = null;
        try {
            thread.submit(() -> { }).get(DRAIN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            log.warn("server counters of run {}: a reading still runs after {} ms", runId, DRAIN.toMillis());
        }
    }

    /** Reads at once, then once a period, for step {@code id}. */
    public synchronized void stepStarted(int id) {
        stepId = id;
        submit(id);
    }

    /** A last reading for the step; none after it until the next step starts. */
    public synchronized void stepEnded() {
        int ended = stepId;
        stepId = 0;
        if (ended != 0) {
            submit(ended);
        }
    }

    private void submit(int step) {
        Source s = source;
        if (s == null) {
            return;
        }
        try {
            thread.execute(() -> readSafely(s, step));
        } catch (RejectedExecutionException e) {
            // closed: the run is over
        }
    }

    private void readSafely(Source s, int step) {
        try {
            read(s, step);
        } catch (RuntimeException e) {
            // a lost reading must not stop the run; the next one is taken as usual
            log.warn("server counters of run {}: reading failed: {}", runId, e.toString());
        }
    }

    private void read(Source s, int step) {
        long atMs = clock.epochMicros() / 1000;
        long t0 = System.nanoTime();
        CounterReading reading = null;
        String error = null;
        try (Connection c = s.connection().getConnection()) {
            reading = s.counters().read(c);
        } catch (SQLException e) {
            error = Secrets.redactUrl(SqlErrors.describe(e));
        }
        long micros = (System.nanoTime() - t0) / 1_000;
        if (error != null && !failing) {
            log.warn("server counters of target '{}' unreadable (published without values until they are readable"
                    + " again): {}", s.name(), error);
        } else if (error == null && failing) {
            log.info("server counters of target '{}' readable again", s.name());
        }
        failing = error != null;
        sink.publish(new ServerCounters(runId, atMs, sink.producerId(), step, s.name(),
                reading == null ? Map.of() : reading.gauges(), reading == null ? Map.of() : reading.counters(),
                micros, error));
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                // not interrupted earlier: an interrupt in the middle of a JDBC call breaks the connection
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
