package io.tailstream.producer.health;

import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.event.ClientHealth;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the load client itself, so that a saturated client is not reported as a slow database (methodology
 * pitfall 1): once per period it publishes a {@link ClientHealth} event with this process's CPU (% of the machine),
 * the machine's CPU, GC time in the interval, the emitter's backlog and the round trip of {@code SELECT 1} to each
 * target of the run, on connections of their own (one small pool per target, apart from the workers' pools). A step during which the process CPU exceeds the limit is flagged client-bound: on the console (once per
 * step), in the events, and in the step's result.
 *
 * <p>Thread safe: the sampler runs on its own daemon thread, the probes on another, one target after the other (so
 * a stalled target delays the probes, never the CPU figures; a probe still waiting is reported with the time it
 * has waited so far).
 */
public final class ClientHealthMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClientHealthMonitor.class);

    private final String runId;
    private final SampleSink sink;
    private final double cpuLimitPct;
    private final Clock clock;
    private final PrintStream console;
    private final ScheduledExecutorService sampler;
    private final ExecutorService prober;
    private final com.sun.management.OperatingSystemMXBean os;

    // guarded by this
    private HealthReadings last;
    private int stepId;
    private boolean stepBound;
    private double stepMaxCpu = -1;
    private Map<String, DataSource> probes = Map.of();
    private final Map<String, Double> lastRttMs = new LinkedHashMap<>();
    private String probing;
    private long probeStartedNanos;
    private boolean probeInFlight;

    /**
     * @param cpuLimitPct process CPU (% of the machine) above which a step is client-bound
     * @param period      time between samples (1 s in runs)
     */
    public ClientHealthMonitor(String runId, SampleSink sink, double cpuLimitPct, Duration period, Clock clock,
                               PrintStream console) {
        this.runId = runId;
        this.sink = sink;
        this.cpuLimitPct = cpuLimitPct;
        this.clock = clock;
        this.console = console;
        this.os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        this.last = read();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "tailstream-health"));
        this.prober = Executors.newSingleThreadExecutor(r -> daemon(r, "tailstream-health-probe"));
        long ms = period.toMillis();
        sampler.scheduleAtFixedRate(this::sampleSafely, ms, ms, TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * The targets whose round trips are probed from now on, by name (empty: none). Waits (up to 5 s) for a probe
     * round still running, so the previous targets' pools can be closed under no one's feet.
     */
    public synchronized void probe(Map<String, DataSource> targets) {
        this.probes = Map.copyOf(targets);
        this.lastRttMs.clear();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (probeInFlight && System.nanoTime() < deadline) {
            try {
                wait(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        // a first round at once, so the first sample of the targets' steps already carries their round trips
        startProbe();
    }
    /** Samples from now on belong to {@code id}; its client-bound flag starts cleared. */
    public synchronized void stepStarted(int id) {
        stepId = id;
        stepBound = false;
        stepMaxCpu = -1;
    }

    /**
     * Takes a last sample for the step (so a step shorter than the period is judged too) and returns what the
     * step's samples showed; samples after this belong to no step (id 0).
     */
    public StepHealth stepEnded() {
        sampleSafely();
        synchronized (this) {
            StepHealth h = new StepHealth(stepBound, stepMaxCpu);
            stepId = 0;
            return h;
        }
    }

    /** What the samples of one step showed. */
    public record StepHealth(boolean clientBound, double maxProcessCpuPct) {}

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) {
            // a lost health sample must not stop the run; the next one covers the longer interval
            log.warn("client health sample of run {} failed: {}", runId, e.toString());
        }
    }

    private void sample() {
        ClientHealth event;
        String warning = null;
        synchronized (this) {
            HealthReadings now = read();
            if (now.wallNanos() - last.wallNanos() < 50_000_000L) {
                return; // too short to mean anything (a step-end sample right after a periodic one)
            }
            double cpu = now.processCpuPctSince(last);
            long gc = now.gcMillisSince(last);
            last = now;
            boolean bound = cpu > cpuLimitPct;
            if (stepId != 0) {
                stepMaxCpu = Math.max(stepMaxCpu, cpu);
                if (bound && !stepBound) {
                    stepBound = true;
                    warning = String.format(Locale.ROOT,
                            "!! client-bound: process CPU %.1f%% > %.1f%% limit in step %d: the figures may measure"
                                    + " this client, not the database", cpu, cpuLimitPct, stepId);
                }
            }
            Map<String, Double> rtt = rttMs(now.wallNanos());
            startProbe();
            event = new ClientHealth(runId, clock.epochMicros() / 1000, sink.producerId(), stepId, cpu,
                    now.machineCpuPct(), gc, sink.backlogBlocks(), rtt, bound);
        }
        if (warning != null) {
            console.println(warning);
        }
        sink.publish(event);
    }

    /** Each target's last finished round trip; for one still in flight, the wait so far if that is longer. */
    private Map<String, Double> rttMs(long nowNanos) {
        Map<String, Double> rtt = new LinkedHashMap<>();
        for (String name : probes.keySet()) {
            double last = lastRttMs.getOrDefault(name, -1.0);
            if (probeInFlight && name.equals(probing)) {
                last = Math.max(last, (nowNanos - probeStartedNanos) / 1e6);
            }
            if (last >= 0) {
                rtt.put(name, last);
            }
        }
        return rtt;
    }

    private void startProbe() {
        if (probes.isEmpty() || probeInFlight) {
            return;
        }
        Map<String, DataSource> round = probes;
        probeInFlight = true;
        prober.execute(() -> runProbes(round));
    }

    private void runProbes(Map<String, DataSource> round) {
        try {
            for (Map.Entry<String, DataSource> t : round.entrySet()) {
                synchronized (this) {
                    if (probes != round) {
                        return; // the targets changed: this round's pools may be closing
                    }
                    probing = t.getKey();
                    probeStartedNanos = System.nanoTime();
                }
                double ms = probeOnce(t.getValue());
                synchronized (this) {
                    if (probes == round && ms >= 0) {
                        lastRttMs.put(t.getKey(), ms);
                    }
                }
            }
        } finally {
            synchronized (this) {
                probeInFlight = false;
                probing = null;
                notifyAll();
            }
        }
    }

    /** One {@code SELECT 1} round trip, ms, or -1 if it failed (logged). */
    private double probeOnce(DataSource ds) {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            long t0 = System.nanoTime();
            st.execute("SELECT 1");
            return (System.nanoTime() - t0) / 1e6;
        } catch (SQLException e) {
            log.warn("SELECT 1 probe of run {} failed: {}", runId, SqlErrors.describe(e));
            return -1;
        }
    }

    private HealthReadings read() {
        long gc = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        double load = os.getCpuLoad();
        return new HealthReadings(System.nanoTime(), os.getProcessCpuTime(), gc, load < 0 ? -1 : load * 100.0,
                Runtime.getRuntime().availableProcessors());
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        // not interrupted: an interrupt in the middle of a JDBC call breaks the connection
        prober.shutdown();
        try {
            sampler.awaitTermination(5, TimeUnit.SECONDS);
            prober.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
