package io.tailstream.analysis.interval;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Fieller's confidence interval for the ratio of two independent means (E. C. Fieller, "Some problems in interval
 * estimation", 1954): the set of ratios {@code r} for which {@code a - r b} is not significantly different from 0,
 * {@code (a - r b)^2 <= t^2 (va + r^2 vb)} with {@code va}, {@code vb} the variances of the two means and {@code t}
 * the two-sided Student quantile at Welch-Satterthwaite degrees of freedom. Unlike {@code difference / b} it carries
 * the uncertainty of the denominator, and it is unbounded when the denominator's mean is not significantly away from
 * 0. Stateless and thread safe.
 */
public final class Fieller {

    private Fieller() {}

    /** The interval of {@code mean(a) / mean(b) - 1}, in percent, from the points themselves. */
    public static PercentInterval ratioOfMeans(double[] a, double[] b, double confidence) {
        return ratioOfMeans(mean(a), sampleVariance(a), a.length, mean(b), sampleVariance(b), b.length, confidence);
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /** Variance with {@code n - 1}; NaN for fewer than 2 points. */
    private static double sampleVariance(double[] x) {
        if (x.length < 2) {
            return Double.NaN;
        }
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return s / (x.length - 1);
    }

    /**
     * The interval of {@code meanA / meanB - 1}, in percent.
     *
     * @param varA sample variance ({@code n - 1}) of the points behind {@code meanA}; NaN if unknown (one point)
     * @param nA   points behind {@code meanA}
     * @return bounds null when a variance is unknown or the interval is unbounded; the estimate null-safe
     *         ({@code meanB = 0} gives an estimate of NaN and no bounds)
     */
    public static PercentInterval ratioOfMeans(double meanA, double varA, int nA, double meanB, double varB, int nB,
                                               double confidence) {
        if (nA < 1 || nB < 1) {
            throw new IllegalArgumentException("each mean needs at least 1 point, had " + nA + " and " + nB);
        }
        double estimate = meanB == 0 ? Double.NaN : (meanA / meanB - 1) * 100;
        if (Double.isNaN(varA) || Double.isNaN(varB) || nA < 2 || nB < 2 || meanB == 0) {
            return new PercentInterval(estimate, null, null, confidence);
        }
        double va = varA / nA;
        double vb = varB / nB;
        if (va + vb == 0) {
            return new PercentInterval(estimate, estimate, estimate, confidence);
        }
        double df = (va + vb) * (va + vb) / (va * va / (nA - 1) + vb * vb / (nB - 1));
        double t = TDistribution.of(df).inverseSurvivalProbability((1 - confidence) / 2);
        double t2 = t * t;
        double denominator = meanB * meanB - t2 * vb;
        if (denominator <= 0) {
            return new PercentInterval(estimate, null, null, confidence);
        }
        double root = Math.sqrt(t2 * (meanA * meanA * vb + meanB * meanB * va - t2 * va * vb));
        double low = (meanA * meanB - root) / denominator;
        double high = (meanA * meanB + root) / denominator;
        return new PercentInterval(estimate, (low - 1) * 100, (high - 1) * 100, confidence);
    }
}
