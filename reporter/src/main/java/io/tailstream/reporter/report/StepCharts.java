package io.tailstream.reporter.report;

import io.tailstream.reporter.query.StepFigure;
import java.util.List;

/** The time-series section: a step's chart from its points, and how its throughput settled. Stateless. */
final class StepCharts {

    private StepCharts() {}

    /** The step's chart, down-sampled for display, with its stalls shaded and its server charts (or null). */
    static StepSeries series(String domId, StepInfo s, TimeSeries.StepPoints ts, List<Stall> stalls,
                             ServerChart server) {
        List<double[]> points = ts.points();
        int n = points.size();
        long[] t = new long[n];
        double[] qps = new double[n];
        double[] p99 = new double[n];
        for (int k = 0; k < n; k++) {
            t[k] = (long) points.get(k)[0];
            qps[k] = points.get(k)[1];
            p99[k] = points.get(k)[2];
        }
        int[] q = Downsample.minMax(qps, Downsample.DEFAULT_BUCKETS);
        int[] p = Downsample.minMax(p99, Downsample.DEFAULT_BUCKETS);
        List<double[]> shaded = stalls.stream().filter(x -> x.runId().equals(s.runId()) && x.stepId() == s.stepId())
                .map(x -> new double[] {x.startMs() / 1000.0, x.endMs() / 1000.0}).toList();
        return new StepSeries(domId, s.runId(), s.stepId(), s.target(), s.workload(), s.threads(), s.round(),
                Downsample.pick(t, q), Downsample.pick(qps, q), Downsample.pick(t, p), Downsample.pick(p99, p), n,
                ts.measureStartMs(), shaded, ts.measureEndMs(), ts.startMs(), ts.normalized(), ts.allStatements(),
                "completed".equals(s.outcome()) ? null : s.outcome() == null ? StepFigure.NOT_ENDED : s.outcome(),
                server);
    }

    /**
     * Mean QPS of the last quarter of the warm-up windows (those ending by the measurement start) and of the
     * measured windows (starting at or after it, the step's last, partial window left out); nulls without data.
     */
    static Double[] settle(List<double[]> points, Long measureStartMs) {
        if (measureStartMs == null || points.size() < 3) {
            return new Double[] {null, null};
        }
        double ms = measureStartMs / 1000.0;
        List<double[]> warm = points.stream().filter(p -> p[0] + 1 <= ms).toList();
        List<double[]> measured = points.subList(0, points.size() - 1).stream().filter(p -> p[0] >= ms).toList();
        if (warm.isEmpty() || measured.isEmpty()) {
            return new Double[] {null, null};
        }
        List<double[]> tail = warm.subList(warm.size() - Math.max(1, warm.size() / 4), warm.size());
        return new Double[] {tail.stream().mapToDouble(p -> p[1]).average().orElseThrow(),
                measured.stream().mapToDouble(p -> p[1]).average().orElseThrow()};
    }
}
