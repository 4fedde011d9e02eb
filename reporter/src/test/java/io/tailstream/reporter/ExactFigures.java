package io.tailstream.reporter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reference model of the report's and {@code compare}'s figures, in plain Java over raw samples and written
 * from the definitions in docs/report.md, independently of the SQL that computes them: QPS (statements that
 * succeeded, as sysbench counts them) and TPS (successful transactions) over the summed measured spans, errors per second and per class, nearest-rank percentiles (the value at
 * rank {@code ceil(q * n)}, computed in integers), mean and max of successful samples, the failed ones apart, and
 * the share of latency time carried by the slowest {@code floor(n / 1000)} successful samples.
 */
public final class ExactFigures {

    private ExactFigures() {}

    /** One measured sample. */
    public record Sample(long latencyUs, String status, int queries, String op) {
        boolean ok() {
            return status.equals("ok");
        }

        /**
         * Statements that succeeded, as sysbench counts them: all of a successful transaction's, and all but the last
         * (the one that failed) of a failed transaction's.
         */
        long succeededStatements() {
            return ok() ? queries : Math.max(0, queries - 1);
        }
    }

    /** One step's measured samples and the span its rates divide by. */
    public record Step(List<Sample> samples, long spanUs) {}

    /** Nearest-rank statistics, µs. */
    public record Latencies(long count, double meanUs, long p50, long p95, long p99, long p999, long p9999,
                            long max, long slowestCount, Double slowestSharePct) {}

    /** The figures of a set of pooled steps. */
    public record Expected(long samples, long errors, Map<String, Long> errorsByClass, double seconds, long queries,
                           double qps, double tps, double errorsPerSecond, Latencies ok, Latencies failed,
                           Double readMeanUs, Double writeMeanUs, List<Double> roundQps, List<Long> roundP99Us) {}

    public static Expected of(List<Step> steps) {
        List<Sample> all = new ArrayList<>();
        long spanUs = 0;
        List<Double> roundQps = new ArrayList<>();
        List<Long> roundP99 = new ArrayList<>();
        for (Step s : steps) {
            all.addAll(s.samples());
            spanUs += s.spanUs();
            long q = s.samples().stream().mapToLong(Sample::succeededStatements).sum();
            roundQps.add(q / (s.spanUs() / 1e6));
            long[] okLat = s.samples().stream().filter(Sample::ok).mapToLong(Sample::latencyUs).sorted().toArray();
            roundP99.add(okLat.length == 0 ? 0 : rank(okLat, 99, 100));
        }
        double seconds = spanUs / 1e6;
        long okN = all.stream().filter(Sample::ok).count();
        long queries = all.stream().mapToLong(Sample::succeededStatements).sum();
        Map<String, Long> byClass = new TreeMap<>();
        all.stream().filter(x -> !x.ok()).forEach(x -> byClass.merge(x.status(), 1L, Long::sum));
        long errors = all.size() - okN;
        return new Expected(all.size(), errors, byClass, seconds, queries, queries / seconds, okN / seconds,
                errors / seconds, latencies(all.stream().filter(Sample::ok).toList(), true),
                latencies(all.stream().filter(x -> !x.ok()).toList(), false),
                mean(all.stream().filter(x -> x.ok() && x.op().equals("read")).toList()),
                mean(all.stream().filter(x -> x.ok() && List.of("update", "insert", "write", "read_modify_write")
                        .contains(x.op())).toList()), roundQps, roundP99);
    }

    private static Double mean(List<Sample> samples) {
        return samples.isEmpty() ? null
                : samples.stream().mapToLong(Sample::latencyUs).sum() / (double) samples.size();
    }

    private static Latencies latencies(List<Sample> samples, boolean withShare) {
        if (samples.isEmpty()) {
            return null;
        }
        long[] sorted = samples.stream().mapToLong(Sample::latencyUs).sorted().toArray();
        long sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        int n = sorted.length;
        long k = n / 1000;
        Double share = null;
        if (withShare && k > 0) {
            long top = 0;
            for (int i = n - 1; i >= n - k; i--) {
                top += sorted[i];
            }
            share = top * 100.0 / sum;
        }
        return new Latencies(n, sum / (double) n, rank(sorted, 1, 2), rank(sorted, 95, 100), rank(sorted, 99, 100),
                rank(sorted, 999, 1000), rank(sorted, 9999, 10000), sorted[n - 1], k, share);
    }

    /** The value at rank {@code ceil(n * num / den)} (1-based) of sorted values, in exact integer arithmetic. */
    public static long rank(long[] sorted, long num, long den) {
        long r = (sorted.length * num + den - 1) / den;
        return sorted[(int) Math.max(r, 1) - 1];
    }
}
