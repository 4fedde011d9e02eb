package io.tailstream.aggregator.step;

/**
 * Running sums over the measured windows' QPS for the soak metrics: least-squares slope (macro trend) and
 * coefficient of variation (micro jitter). Exact sums, so the figures equal a batch computation over the series.
 *
 * @param n     windows
 * @param sumT  Σ t, t = window start relative to the measurement start, hours
 * @param sumTT Σ t²
 * @param sumQ  Σ qps
 * @param sumQQ Σ qps²
 * @param sumTQ Σ t·qps
 */
public record QpsTrend(long n, double sumT, double sumTT, double sumQ, double sumQQ, double sumTQ) {

    public static QpsTrend empty() {
        return new QpsTrend(0, 0, 0, 0, 0, 0);
    }

    public QpsTrend plus(double hours, double qps) {
        return new QpsTrend(n + 1, sumT + hours, sumTT + hours * hours, sumQ + qps, sumQQ + qps * qps,
                sumTQ + hours * qps);
    }

    public double meanQps() {
        return n == 0 ? 0 : sumQ / n;
    }

    /** Least-squares slope of QPS over time as % of the mean QPS per hour; 0 with fewer than 2 windows. */
    public double slopePctPerHour() {
        double denominator = n * sumTT - sumT * sumT;
        double mean = meanQps();
        if (n < 2 || denominator <= 0 || mean == 0) {
            return 0;
        }
        double slope = (n * sumTQ - sumT * sumQ) / denominator;
        return slope / mean * 100.0;
    }

    /** Population standard deviation of window QPS over its mean; 0 without windows or with mean 0. */
    public double cv() {
        double mean = meanQps();
        if (n == 0 || mean == 0) {
            return 0;
        }
        double variance = Math.max(0, sumQQ / n - mean * mean);
        return Math.sqrt(variance) / mean;
    }
}
