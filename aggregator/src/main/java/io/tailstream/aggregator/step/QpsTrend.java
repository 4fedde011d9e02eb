package io.tailstream.aggregator.step;

/**
 * Running sums over whole measured windows' QPS for the soak metrics: least-squares slope (macro trend) and
 * coefficient of variation (micro jitter). Exact sums, so the figures equal a batch computation over the series.
 * Immutable.
 *
 * @param n      windows
 * @param spanMs Σ window lengths, ms
 * @param sumT   Σ t, t = window start relative to the first whole measured window, hours
 * @param sumTT  Σ t²
 * @param sumQ   Σ qps
 * @param sumQQ  Σ qps²
 * @param sumTQ  Σ t·qps
 */
record QpsTrend(long n, long spanMs, double sumT, double sumTT, double sumQ, double sumQQ, double sumTQ) {

    /**
     * Whole measured windows a trend needs, in time: a slope in % per hour or a coefficient of variation over a few
     * seconds of windows is noise (a 10 s step's last windows alone moved the slope by ±20,000 %/h). Ten minutes is a
     * third of the report's 30-minute soak threshold, so every step the report shows soak figures for has them here.
     */
    public static final long MIN_SPAN_MS = 10 * 60_000L;

    public static QpsTrend empty() {
        return new QpsTrend(0, 0, 0, 0, 0, 0, 0);
    }

    public QpsTrend plus(double hours, double qps, long windowMs) {
        return new QpsTrend(n + 1, spanMs + windowMs, sumT + hours, sumTT + hours * hours, sumQ + qps,
                sumQQ + qps * qps, sumTQ + hours * qps);
    }

    /** True if the windows cover {@link #MIN_SPAN_MS} and there are at least two. */
    public boolean meaningful() {
        return n >= 2 && spanMs >= MIN_SPAN_MS;
    }

    public double meanQps() {
        return n == 0 ? 0 : sumQ / n;
    }

    /**
     * Least-squares slope of QPS over time as % of the mean QPS per hour; null unless {@link #meaningful()}, 0 when
     * the mean QPS is 0.
     */
    public Double slopePctPerHour() {
        if (!meaningful()) {
            return null;
        }
        double denominator = n * sumTT - sumT * sumT;
        double mean = meanQps();
        if (denominator <= 0 || mean == 0) {
            return 0.0;
        }
        double slope = (n * sumTQ - sumT * sumQ) / denominator;
        return slope / mean * 100.0;
    }

    /** Population standard deviation of window QPS over its mean; null unless {@link #meaningful()}, 0 at mean 0. */
    public Double cv() {
        if (!meaningful()) {
            return null;
        }
        double mean = meanQps();
        if (mean == 0) {
            return 0.0;
        }
        double variance = Math.max(0, sumQQ / n - mean * mean);
        return Math.sqrt(variance) / mean;
    }
}
