package io.tailstream.producer.driver;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The console's interval lines of one step ({@code [ 10s ] thds: 8 tps: ... lat (ms,95%): ...}), each over the
 * workers' transactions since the previous line, from their interval recorders and counters.
 *
 * <p>Not thread safe: used by the thread that watches the step only (the workers' recorders and counters are safe to
 * read from it).
 */
final class IntervalLines {

    private final StepSpec spec;
    private final List<Worker> workers;
    private final Clock clock;
    private final PrintStream console;
    private final Histogram interval = new Histogram(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
    private final Histogram coInterval = new Histogram(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
    private long[] prev = new long[4];
    private long prevNanos;
    private int n;

    /** @param startNanos when the step started: the first line's interval begins there */
    IntervalLines(StepSpec spec, List<Worker> workers, Clock clock, PrintStream console, long startNanos) {
        this.spec = spec;
        this.workers = workers;
        this.clock = clock;
        this.console = console;
        this.prevNanos = startNanos;
    }

    /** Prints the line of the interval that ends now. */
    void print() {
        n++;
        long[] now = new long[4]; // ok, errors, queries, reconnects
        interval.reset();
        coInterval.reset();
        for (Worker w : workers) {
            w.counters.addTo(now);
            now[3] += w.counters.reconnects();
            w.intervalRecycle = w.recorder.getIntervalHistogram(w.intervalRecycle);
            interval.add(w.intervalRecycle);
            if (w.coRecorder != null) {
                w.coIntervalRecycle = w.coRecorder.getIntervalHistogram(w.coIntervalRecycle);
                coInterval.add(w.coIntervalRecycle);
            }
        }
        long nowNanos = clock.nanoTime();
        // rates over the time that actually passed, not the nominal interval (the reporter may wake late)
        double secs = Math.max(1, nowNanos - prevNanos) / 1e9;
        String line = String.format(Locale.ROOT,
                "[ %ds ] thds: %d tps: %.2f qps: %.2f lat (ms,95%%): %.2f err/s: %.2f reconn/s: %.2f",
                n * spec.intervalSeconds(), spec.threads(), (now[0] - prev[0]) / secs,
                (now[2] - prev[2]) / secs, interval.getValueAtPercentile(95) / 1000.0,
                (now[1] - prev[1]) / secs, (now[3] - prev[3]) / secs);
        if (spec.openLoop()) {
            line += String.format(Locale.ROOT, " lat-intended (ms,95%%): %.2f",
                    coInterval.getValueAtPercentile(95) / 1000.0);
        }
        console.println(line);
        prev = now;
        prevNanos = nowNanos;
    }
}
