package io.tailstream.analysis;

import java.util.ArrayDeque;

/**
 * The soak figures of a step's measured windows, as they arrive: mean QPS, the macro trend (least-squares slope of
 * window QPS over time, in % of the mean per hour), the micro jitter (population standard deviation of window QPS, in
 * % of the mean), and the mean QPS of the first and of the last hour. The report computes them once over the whole
 * step; the live page keeps them up to date window by window; both with this class.
 *
 * <p>Constant memory but for the last hour's windows (at most an hour's worth: 3,600 of 1 s windows). Means,
 * variance and covariance are updated as Welford does (numerically stable over any number of windows), the time in
 * hours since the first window. Windows must arrive in ascending time. Not thread safe.
 */
public final class SoakTrend {

    private static final double HOUR_S = 3600;

    private long n;
    private double firstS = Double.NaN;
    private double meanT;
    private double meanQ;
    private double m2T;
    private double m2Q;
    private double cTQ;
    private double firstHourSum;
    private long firstHourN;
    /** {epoch s, qps} of the windows of the last hour. */
    private final ArrayDeque<double[]> lastHour = new ArrayDeque<>();
    private double lastHourSum;

    /** Adds a window starting at {@code epochSeconds} with {@code qps}; later than every window added before. */
    public void add(double epochSeconds, double qps) {
        if (n == 0) {
            firstS = epochSeconds;
        }
        double t = (epochSeconds - firstS) / HOUR_S;
        n++;
        double dT = t - meanT;
        double dQ = qps - meanQ;
        meanT += dT / n;
        meanQ += dQ / n;
        m2T += dT * (t - meanT);
        m2Q += dQ * (qps - meanQ);
        cTQ += dT * (qps - meanQ);
        if (epochSeconds < firstS + HOUR_S) {
            firstHourSum += qps;
            firstHourN++;
        }
        lastHour.addLast(new double[] {epochSeconds, qps});
        lastHourSum += qps;
        while (lastHour.peekFirst()[0] <= epochSeconds - HOUR_S) {
            lastHourSum -= lastHour.pollFirst()[1];
        }
    }

    /** Windows added. */
    public long windows() {
        return n;
    }

    /** Mean window QPS; 0 without windows. */
    public double meanQps() {
        return meanQ;
    }

    /** Least-squares slope of window QPS over time, in % of the mean QPS per hour; 0 without a slope or a mean. */
    public double trendPctPerHour() {
        return m2T > 0 && meanQ > 0 ? cTQ / m2T / meanQ * 100 : 0;
    }

    /** Population standard deviation of window QPS in % of the mean; 0 without a mean. */
    public double jitterPct() {
        return n > 0 && meanQ > 0 ? Math.sqrt(m2Q / n) / meanQ * 100 : 0;
    }

    /** Mean QPS of the windows starting within an hour of the first; 0 without windows. */
    public double firstHourQps() {
        return firstHourN == 0 ? 0 : firstHourSum / firstHourN;
    }

    /** Mean QPS of the windows starting less than an hour before the last one (it included); 0 without windows. */
    public double lastHourQps() {
        return lastHour.isEmpty() ? 0 : lastHourSum / lastHour.size();
    }
}
