package io.tailstream.aggregator.http;

import io.tailstream.analysis.SoakTrend;
import io.tailstream.analysis.counters.CounterReadings;
import io.tailstream.analysis.counters.ServerLines;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One step's whole course so far, for the live page: its all-ops roll-ups (a point per 10 s and per 60 s window,
 * whatever sizes the aggregator rolls up), the soak figures of its measured base windows ({@link SoakTrend}: mean,
 * macro trend, jitter, first and last hour) and the server's side ({@link ServerLines}: the highest values of the
 * target's readings per 10 s, from the first producer that read it).
 *
 * <p>Bounded: at most {@link #POINTS_KEPT} points per roll-up size (12 hours of 10 s points, 3 days of 60 s ones)
 * and as many 10 s server buckets, the oldest dropped first, and the soak figures in constant memory but for the last
 * hour's windows: a 12-hour step takes a few MB (measured in the benchmarks).
 *
 * <p>What it shows is what the aggregator emitted as it went, so it can differ from the archive's figures in one
 * corner: a roll-up late correction adds its samples, count and rates to its point (its P99 stays the window's
 * own), and after a crash of the aggregator such a correction can be seen twice. The soak figures take each measured
 * base window once, as it closed, without its late samples. The report's figures, from the archive, are exact.
 *
 * <p>Thread safe: written by stream threads, read by the HTTP server's.
 */
final class StepTimeline {

    /** Marks a bucket with a good reading among its values. */
    private static final String READ = "";

    /** Points kept per roll-up size (and 10 s buckets of the server's readings). */
    static final int POINTS_KEPT = 4_320;

    /**
     * A roll-up window's figures.
     *
     * @param qps statements of successful transactions per second
     * @param tps successful transactions per second
     */
    record Point(long startMs, long endMs, long count, long errors, double qps, double tps, long p99Micros,
                 long maxMicros) {

        static Point of(WindowStats w) {
            return new Point(w.windowStartEpochMs(), w.windowEndEpochMs(), w.count(), w.errors(), w.qps(), w.tps(),
                    w.p99Micros(), w.maxMicros());
        }

        /** This point with a late correction's samples added. */
        Point plus(WindowStats late) {
            return new Point(startMs, endMs, count + late.count(), errors + late.errors(), qps + late.qps(),
                    tps + late.tps(), p99Micros, Math.max(maxMicros, late.maxMicros()));
        }
    }

    /** The soak figures so far. */
    record Trend(long windows, double meanQps, double trendPctPerHour, double jitterPct, double firstHourQps,
                 double lastHourQps) {}

    /** The server's readings are bucketed by this: as the 10 s roll-ups. */
    static final long SERVER_BUCKET_MS = 10_000;

    /** Roll-up length in ms → points by start (guarded by this). */
    private final NavigableMap<Long, NavigableMap<Long, Point>> rollups = new TreeMap<>();
    private final SoakTrend trend = new SoakTrend();
    /**
     * Per 10 s bucket, the highest value of each gauge the server lines read ({@link ServerLines#read}) in the
     * bucket's readings; an empty map for a bucket whose readings all failed (guarded by this).
     */
    private final NavigableMap<Long, Map<String, Long>> server = new TreeMap<>();
    /** The producer whose readings are kept: the first that sent any (producers of a step read one server). */
    private String serverProducer;
    private long trendThroughMs = Long.MIN_VALUE;

    /** A roll-up window of the step's all-ops scope: a new point, the same again, or a late correction. */
    synchronized void rollup(WindowStats w) {
        NavigableMap<Long, Point> points = rollups.computeIfAbsent(w.windowEndEpochMs() - w.windowStartEpochMs(),
                k -> new TreeMap<>());
        Point known = points.get(w.windowStartEpochMs());
        boolean correction = w.lateCount() > 0 && w.lateCount() == w.count();
        if (known != null && correction) {
            points.put(w.windowStartEpochMs(), known.plus(w));
        } else if (known == null || !correction) {
            points.put(w.windowStartEpochMs(), Point.of(w));
        }
        while (points.size() > POINTS_KEPT) {
            points.pollFirstEntry();
        }
    }

    /**
     * A base window of the step's all-ops scope: counted in the soak figures if it is measured (no warm-up sample), on
     * time (not a late correction) and later than every window counted before (a window seen again is not).
     */
    synchronized void window(WindowStats w) {
        boolean correction = w.lateCount() > 0 && w.lateCount() == w.count();
        if (w.warmupCount() == 0 && w.count() > 0 && !correction && w.windowStartEpochMs() > trendThroughMs) {
            trend.add(w.windowStartEpochMs() / 1000.0, w.qps());
            trendThroughMs = w.windowStartEpochMs();
        }
    }

    /** A reading of the step's target by one of its producers, kept as its bucket's highest values. */
    synchronized void server(ServerCounters reading) {
        if (serverProducer == null) {
            serverProducer = reading.producerId();
        } else if (!serverProducer.equals(reading.producerId())) {
            return;
        }
        long bucket = Math.floorDiv(reading.atEpochMs(), SERVER_BUCKET_MS) * SERVER_BUCKET_MS;
        Map<String, Long> max = server.computeIfAbsent(bucket, k -> new TreeMap<>());
        if (reading.error() == null) {
            reading.gauges().forEach((name, value) -> {
                if (ServerLines.read(name)) {
                    max.merge(name, value, Math::max);
                }
            });
            max.putIfAbsent(READ, 1L);
        }
        while (server.size() > POINTS_KEPT) {
            server.pollFirstEntry();
        }
    }

    /** The server lines over the step so far, a point per 10 s: the highest values of its readings. */
    synchronized ServerLines.Lines serverLines() {
        CounterReadings readings = new CounterReadings();
        server.forEach((at, max) -> {
            readings.reading(at, max.containsKey(READ));
            max.forEach((name, value) -> {
                if (!name.equals(READ)) {
                    readings.value(at, name, false, value);
                }
            });
        });
        return ServerLines.of(readings.series());
    }

    /**
     * The points of the finest roll-up whose points reach back as far as the coarsest's (12 hours of 10 s points;
     * beyond, 60 s ones), oldest first; empty before the first roll-up.
     */
    synchronized List<Point> points() {
        Map.Entry<Long, NavigableMap<Long, Point>> chosen = null;
        long earliest = Long.MAX_VALUE;
        for (NavigableMap<Long, Point> p : rollups.values()) {
            earliest = Math.min(earliest, p.firstKey());
        }
        for (Map.Entry<Long, NavigableMap<Long, Point>> e : rollups.entrySet()) {
            if (e.getValue().firstKey() <= earliest + rollups.lastKey()) {
                chosen = e;
                break;
            }
        }
        return chosen == null ? List.of() : new ArrayList<>(chosen.getValue().values());
    }

    synchronized Trend trend() {
        return new Trend(trend.windows(), trend.meanQps(), trend.trendPctPerHour(), trend.jitterPct(),
                trend.firstHourQps(), trend.lastHourQps());
    }
}
