package io.tailstream.aggregator.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Reference model: the raw samples of each (scope, window), kept as objects, and the exact figures computed from
 * them by sorting. Windows by completion time (start + latency), aligned to the epoch.
 */
public final class ExactWindows {

    /** Percentiles checked, in thousandths of a percent, so the nearest rank is computed in exact integers. */
    private static final long[] PERCENTILE_MILLIS = {50_000, 90_000, 95_000, 99_000, 99_900, 99_990};
    private static final Histogram BUCKETS = LatencyHistograms.create();

    private final long windowSizeMs;
    private final Map<String, TreeMap<Long, List<Sample>>> byScope = new HashMap<>();

    public ExactWindows(long windowSizeMs) {
        this.windowSizeMs = windowSizeMs;
    }

    public void add(String runId, int stepId, String op, Sample s) {
        long endMs = Math.floorDiv(s.endEpochMicros(), 1000L);
        long window = endMs - Math.floorMod(endMs, windowSizeMs);
        for (String scopeOp : List.of(op, WindowStats.ALL_OPS)) {
            byScope.computeIfAbsent(WindowStats.scopeKey(runId, stepId, scopeOp), k -> new TreeMap<>())
                    .computeIfAbsent(window, w -> new ArrayList<>()).add(s);
        }
    }

    public void addAll(String runId, int stepId, List<String> ops, List<Sample> samples) {
        for (Sample s : samples) {
            add(runId, stepId, ops.get(s.opIndex()), s);
        }
    }

    /** Windows with samples, by scope key. */
    public Map<String, TreeMap<Long, List<Sample>>> windows() {
        return byScope;
    }

    public long totalSamples(String scopeKey) {
        return byScope.getOrDefault(scopeKey, new TreeMap<>()).values().stream().mapToLong(List::size).sum();
    }

    /**
     * Asserts every figure of {@code w} (version 2) against the exact computation over {@code samples}: counters over
     * every sample, rates and latency figures over the successful ones, failed samples' latencies apart, and the
     * measured part of a window that mixes warm-up and measured samples.
     */
    public static void assertMatches(WindowStats w, List<Sample> samples) {
        String where = w.scopeKey() + " @" + w.windowStartEpochMs();
        double seconds = (w.windowEndEpochMs() - w.windowStartEpochMs()) / 1000.0;
        List<Sample> ok = samples.stream().filter(s -> !s.status().isError()).toList();
        long errors = samples.size() - ok.size();
        long okQueries = samples.stream().mapToLong(Sample::succeededStatements).sum(); // sysbench's rule
        long warmup = samples.stream().filter(Sample::warmup).count();
        assertThat(w.version()).as("version " + where).isEqualTo(WindowStats.VERSION);
        assertThat(w.count()).as("count " + where).isEqualTo(samples.size());
        assertThat(w.errors()).as("errors " + where).isEqualTo(errors);
        assertThat(w.errorsByClass()).as("errorsByClass " + where).isEqualTo(byClass(samples));
        assertThat(w.queries()).as("queries " + where).isEqualTo(samples.stream().mapToLong(Sample::queries).sum());
        assertThat(w.okQueries()).as("okQueries " + where).isEqualTo(okQueries);
        assertThat(w.warmupCount()).as("warmup " + where).isEqualTo(warmup);
        assertThat(w.qps()).as("qps " + where).isEqualTo(okQueries / seconds);
        assertThat(w.tps()).as("tps " + where).isEqualTo(ok.size() / seconds);
        assertThat(w.errorsPerSecond()).as("err/s " + where).isEqualTo(errors / seconds);
        if (!ok.isEmpty()) {
            long[] sorted = ok.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
            long[] reported = {w.p50Micros(), w.p90Micros(), w.p95Micros(), w.p99Micros(), w.p999Micros(),
                    w.p9999Micros()};
            for (int i = 0; i < PERCENTILE_MILLIS.length; i++) {
                long exact = nearestRank(sorted, PERCENTILE_MILLIS[i]);
                assertWithinPrecision(reported[i], exact, "p" + PERCENTILE_MILLIS[i] / 1000.0 + " " + where);
            }
            assertWithinPrecision(w.maxMicros(), sorted[sorted.length - 1], "max " + where);
            double mean = Arrays.stream(sorted).average().orElseThrow();
            assertThat(w.meanMicros()).as("mean " + where).isCloseTo(mean, within(mean * 1e-3 + 0.5));
        }
        assertLatencies(w.errorHistogram(), samples.stream().filter(s -> s.status().isError()).toList(),
                "failed " + where);
        boolean mixed = warmup > 0 && warmup < samples.size();
        assertThat(w.measured() != null).as("measured part present " + where).isEqualTo(mixed);
        List<Sample> measured = samples.stream().filter(s -> !s.warmup()).toList();
        assertPart(w.measuredPart(), measured, "measured part " + where);
    }

    /**
     * Asserts the records of one (scope, window) against its raw samples: one record is checked figure by figure
     * ({@link #assertMatches}); a window split by lateness (one regular record and late corrections, each holding
     * only its late samples, {@code lateCount == count}) is checked as consumers read it — counts added, histograms
     * merged, bucket for bucket equal to the raw samples'.
     */
    public static void assertMatchesMerged(List<WindowStats> records, List<Sample> samples) {
        if (records.size() == 1) {
            assertMatches(records.get(0), samples);
            return;
        }
        WindowStats first = records.get(0);
        String where = first.scopeKey() + " @" + first.windowStartEpochMs() + " (" + records.size() + " records)";
        assertThat(records.stream().filter(w -> w.lateCount() == w.count() && w.count() > 0).count())
                .as("late corrections of " + where).isGreaterThanOrEqualTo(records.size() - 1L);
        List<Sample> ok = samples.stream().filter(s -> !s.status().isError()).toList();
        assertThat(records.stream().mapToLong(WindowStats::count).sum()).as("count " + where)
                .isEqualTo(samples.size());
        assertThat(records.stream().mapToLong(WindowStats::errors).sum()).as("errors " + where)
                .isEqualTo(samples.size() - ok.size());
        assertThat(records.stream().mapToLong(WindowStats::queries).sum()).as("queries " + where)
                .isEqualTo(samples.stream().mapToLong(Sample::queries).sum());
        assertThat(records.stream().mapToLong(WindowStats::okQueries).sum()).as("okQueries " + where)
                .isEqualTo(samples.stream().mapToLong(Sample::succeededStatements).sum());
        assertThat(records.stream().mapToLong(WindowStats::warmupCount).sum()).as("warmup " + where)
                .isEqualTo(samples.stream().filter(Sample::warmup).count());
        Histogram merged = LatencyHistograms.create();
        records.stream().map(WindowStats::histogram).filter(java.util.Objects::nonNull)
                .forEach(h -> merged.add(LatencyHistograms.fromBase64(h)));
        Histogram expected = LatencyHistograms.create();
        ok.forEach(x -> LatencyHistograms.record(expected, x.latencyMicros()));
        assertThat(merged).as("successful latencies, merged, " + where).isEqualTo(expected);
    }

    /** Asserts a part's counters and histograms (exact bucket counts) against its raw samples. */
    public static void assertPart(WindowPart part, List<Sample> samples, String what) {
        List<Sample> ok = samples.stream().filter(s -> !s.status().isError()).toList();
        assertThat(part.count()).as("count " + what).isEqualTo(samples.size());
        assertThat(part.errors()).as("errors " + what).isEqualTo(samples.size() - ok.size());
        assertThat(part.errorsByClass()).as("errorsByClass " + what).isEqualTo(byClass(samples));
        assertThat(part.queries()).as("queries " + what).isEqualTo(samples.stream().mapToLong(Sample::queries).sum());
        assertThat(part.okQueries()).as("okQueries " + what).isEqualTo(samples.stream()
                .mapToLong(Sample::succeededStatements).sum());
        assertLatencies(part.histogram(), ok, "successful " + what);
        assertLatencies(part.errorHistogram(), samples.stream().filter(s -> s.status().isError()).toList(),
                "failed " + what);
    }

    /** The encoded histogram holds exactly these samples' latencies (null when there are none). */
    private static void assertLatencies(String encoded, List<Sample> samples, String what) {
        if (samples.isEmpty()) {
            assertThat(encoded).as(what + ": no histogram").isNull();
            return;
        }
        Histogram expected = LatencyHistograms.create();
        samples.forEach(s -> LatencyHistograms.record(expected, s.latencyMicros()));
        assertThat(LatencyHistograms.fromBase64(encoded)).as(what + " histogram").isEqualTo(expected);
    }

    private static Map<String, Long> byClass(List<Sample> samples) {
        Map<String, Long> byClass = new HashMap<>();
        for (Sample s : samples) {
            if (s.status() != SampleStatus.OK) {
                byClass.merge(s.status().label(), 1L, Long::sum);
            }
        }
        return byClass;
    }

    /**
     * Nearest rank: the smallest sample such that at least p% of the samples are ≤ it; rank = max(1, ceil(p N / 100)),
     * which is what HdrHistogram's {@code getValueAtPercentile} computes over its buckets.
     */
    public static long nearestRank(long[] sorted, long percentileMillis) {
        long n = sorted.length;
        long rank = Math.max(1, (percentileMillis * n + 99_999) / 100_000);
        return sorted[(int) rank - 1];
    }

    /**
     * HdrHistogram reports the highest value equivalent to the exact one (same bucket): never below it, and above it
     * by less than its precision, 10^-3 relative at 3 significant digits.
     */
    public static void assertWithinPrecision(long reported, long exact, String what) {
        assertThat(reported).as(what + " is the exact value's bucket top")
                .isEqualTo(BUCKETS.highestEquivalentValue(exact));
        assertThat((reported - exact) * 1000).as(what + " relative error <= 1e-3 (exact " + exact + ")")
                .isBetween(0L, exact);
    }
}
