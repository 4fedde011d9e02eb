package io.tailstream.producer.health;

import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.event.ClientHealth;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the load client itself, so that a saturated client is not reported as a slow database (methodology
 * pitfall 1): once per period it publishes a {@link ClientHealth} event with the process's CPU split three ways
 * ({@link CpuAccount}: the load generator's own threads, the rest of the process's Java threads, the JVM's own work),
 * each as % of the whole machine, the machine's CPU, GC time in the interval, the emitter's backlog and the round
 * trip of {@code SELECT 1} to the current step's target on a connection of its own. A step during which the load
 * generator's CPU reaches the limit is flagged client-bound: on the console (once per step), in the events, and in
 * the step's result. Without per-thread CPU times (a JVM that cannot read them) the process's CPU decides.
 *
 * <p>Thread safe: the sampler runs on its own daemon thread, the probes on another, one target after the other (so
 * a stalled target delays the probes, never the CPU figures; a probe still waiting is reported with the time it
 * has waited so far). Both threads count as load generation.
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
    private final boolean threadCpu;

    // guarded by this
    private HealthReadings last;
    private final CpuAccount cpu;
    /** The current step's database runs in this process: never judged client-bound. */
    private boolean stepEmbedded;
    private int stepId;
    private boolean stepBound;
    private double stepMaxCpu = -1;
    private long stepWallNanos;
    private long stepLoadGenNanos;
    private long stepProcessNanos;
    private Map<String, RoundTripProbe> probes = Map.of();
    private final Map<String, Double> lastRttMs = new LinkedHashMap<>();
    private String probing;
    private long probeStartedNanos;
    private boolean probeInFlight;

    /**
     * @param cpuLimitPct load-generator CPU (% of the machine) from which a step is client-bound
     * @param period      time between samples (1 s in runs)
     * @param loadGen     the load generator's threads; the monitor registers its own there too
     */
    public ClientHealthMonitor(String runId, SampleSink sink, double cpuLimitPct, Duration period, Clock clock,
                               PrintStream console, LoadGenThreads loadGen) {
        this.runId = runId;
        this.sink = sink;
        this.cpuLimitPct = cpuLimitPct;
        this.clock = clock;
        this.console = console;
        this.os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        this.last = read();
        this.cpu = new CpuAccount(loadGen.source(), loadGen, last.wallNanos());
        this.threadCpu = loadGen.source().threadCpuSupported();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "tailstream-health", loadGen));
        this.prober = Executors.newSingleThreadExecutor(r -> daemon(r, "tailstream-health-probe", loadGen));
        long ms = period.toMillis();
        sampler.scheduleAtFixedRate(this::sampleSafely, ms, ms, TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable r, String name, LoadGenThreads loadGen) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        loadGen.register(t);
        return t;
    }

    /**
     * The targets whose round trips are probed from now on, by name (empty: none). Waits (up to 5 s) for a probe
     * round still running, so the previous targets' pools can be closed under no one's feet.
     */
    public synchronized void probe(Map<String, RoundTripProbe> targets) {
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
    /**
     * Closes the interval before the step with a sample of its own (unless one was just taken), then counts samples
     * for {@code id}, its client-bound flag cleared.
     */
    public void stepStarted(int id) {
        stepStarted(id, false);
    }

    /**
     * As {@link #stepStarted(int)}; for an {@code embedded} target (its database runs on the workers' threads) the
     * CPU figures are still measured and published, but the step is never judged client-bound: the load generator's
     * CPU is the database's too, so the judgement would say nothing about the client.
     */
    public void stepStarted(int id, boolean embedded) {
        sampleSafely();
        synchronized (this) {
            stepEmbedded = embedded;
            stepId = id;
            stepBound = false;
            stepMaxCpu = -1;
            stepWallNanos = 0;
            stepLoadGenNanos = 0;
            stepProcessNanos = 0;
        }
    }

    /**
     * Takes a last sample for the step (so a step shorter than the period is judged too) and returns what the
     * step's samples showed; samples after this belong to no step (id 0).
     */
    public StepHealth stepEnded() {
        sampleSafely();
        synchronized (this) {
            int cpus = Runtime.getRuntime().availableProcessors();
            double machine = (double) stepWallNanos * cpus;
            StepHealth h = new StepHealth(stepBound, stepMaxCpu,
                    !threadCpu || stepWallNanos <= 0 ? -1 : stepLoadGenNanos * 100.0 / machine,
                    stepWallNanos <= 0 ? -1 : stepProcessNanos * 100.0 / machine);
            stepId = 0;
            return h;
        }
    }

    /**
     * What the samples of one step showed.
     *
     * @param clientBound       the load generator's CPU reached the limit in one of the step's intervals
     * @param maxLoadGenCpuPct  the highest load-generator CPU of the step's intervals (the process's when per-thread
     *                          CPU is unknown), % of the machine; -1 if no sample was taken
     * @param meanLoadGenCpuPct the load generator's CPU over the step's intervals, % of the machine; -1 if unknown
     * @param meanProcessCpuPct the process's CPU over the step's intervals, % of the machine; -1 if unknown
     */
    public record StepHealth(boolean clientBound, double maxLoadGenCpuPct, double meanLoadGenCpuPct,
                             double meanProcessCpuPct) {}

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
            CpuAccount.Split split = cpu.read(now.wallNanos());
            int cpus = now.cpus();
            double process = split.pct(split.processNanos(), cpus);
            Double loadGen = threadCpu ? split.pct(split.loadGenNanos(), cpus) : null;
            Double pipeline = threadCpu ? split.pct(split.pipelineNanos(), cpus) : null;
            Double jvm = threadCpu ? split.pct(split.jvmNanos(), cpus) : null;
            double judged = loadGen != null ? loadGen : process;
            long gc = now.gcMillisSince(last);
            last = now;
            // judged within a step only, and never for an embedded database (its CPU is the workers' own)
            boolean bound = stepId != 0 && !stepEmbedded && judged >= cpuLimitPct;
            if (stepId != 0) {
                stepMaxCpu = Math.max(stepMaxCpu, judged);
                stepWallNanos += split.wallNanos();
                stepLoadGenNanos += split.loadGenNanos();
                stepProcessNanos += split.processNanos();
                if (bound && !stepBound) {
                    stepBound = true;
                    warning = loadGen == null ? String.format(Locale.ROOT, "!! client-bound: process CPU %.1f%% >="
                            + " %.1f%% limit in step %d: the figures may measure this client, not the database",
                            process, cpuLimitPct, stepId)
                            : String.format(Locale.ROOT, "!! client-bound: load generator CPU %.1f%% >= %.1f%% limit"
                            + " in step %d (process %.1f%%: pipeline %.1f%%, JVM %.1f%%): the figures may measure"
                            + " this client, not the database", loadGen, cpuLimitPct, stepId, process, pipeline, jvm);
                }
            }
            Map<String, Double> rtt = rttMs(now.wallNanos());
            startProbe();
            event = new ClientHealth(runId, clock.epochMicros() / 1000, sink.producerId(), stepId, process,
                    now.machineCpuPct(), gc, sink.backlogBlocks(), rtt, bound, loadGen, pipeline, jvm);
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
        Map<String, RoundTripProbe> round = probes;
        probeInFlight = true;
        prober.execute(() -> runProbes(round));
    }

    private void runProbes(Map<String, RoundTripProbe> round) {
        try {
            for (Map.Entry<String, RoundTripProbe> t : round.entrySet()) {
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
    private double probeOnce(RoundTripProbe probe) {
        try {
            return probe.once();
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
        return new HealthReadings(System.nanoTime(), gc, load < 0 ? -1 : load * 100.0,
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
