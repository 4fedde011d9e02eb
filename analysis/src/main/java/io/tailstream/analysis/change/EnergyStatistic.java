package io.tailstream.analysis.change;

/**
 * The divisive energy statistic of Matteson and James ("A Nonparametric Approach for Multiple Change Point Analysis
 * of Multivariate Data", 2014) over one series: for a slice {@code [start, end)} it finds the split {@code tau} and
 * the end {@code kappa} that maximise
 * <pre>
 *   Q(X, Y) = 2/(m+n) * sum |X_i - Y_j|
 *           - 2m/((m+n)(n-1)) * sum_{i&lt;k} |X_i - X_k|
 *           - 2n/((m+n)(m-1)) * sum_{j&lt;k} |Y_j - Y_k|
 * </pre>
 * with {@code X = z[start, tau)} ({@code n} points) and {@code Y = z[tau, kappa)} ({@code m} points), the within-sum
 * terms 0 for a single point. Every pairwise distance is read from prefix sums, so a slice of {@code L} points costs
 * {@code O(L^2)} after an {@code O(L^2)} set-up. Not thread safe; one per series.
 */
final class EnergyStatistic {

    /** A candidate split: the first index of the right-hand segment, and its Q value. */
    record Candidate(int index, double qhat) {}

    /** {@code prefix[a][b] = sum_{k < b} |z[a] - z[k]|}. */
    private final double[][] prefix;

    EnergyStatistic(double[] series) {
        int n = series.length;
        prefix = new double[n][n + 1];
        for (int a = 0; a < n; a++) {
            double[] row = prefix[a];
            for (int b = 0; b < n; b++) {
                row[b + 1] = row[b] + Math.abs(series[a] - series[b]);
            }
        }
    }

    /**
     * The best split of {@code [start, end)}, which must hold at least 2 points. Ties go to the smallest
     * {@code tau}, then the smallest {@code kappa}; when no split has a positive Q the result is the first entry of
     * value 0 in row-major order of the {@code (tau, kappa)} matrix whose invalid half reads 0, as numpy's
     * {@code argmax} over that matrix picks it (Apache Otava's calculator), so results match that implementation.
     */
    Candidate best(int start, int end) {
        if (end - start < 2) {
            throw new IllegalArgumentException("a split needs at least 2 points, slice [" + start + ", " + end + ")");
        }
        int size = end - start - 1;
        double best = Double.NEGATIVE_INFINITY;
        int bestRow = 0;
        double withinX = 0;
        for (int row = 0; row < size; row++) {
            int tau = start + 1 + row;
            int n = tau - start;
            if (n > 1) {
                withinX += prefix[tau - 1][tau - 1] - prefix[tau - 1][start];
            }
            // entries left of the diagonal are not splits; they read 0
            if (row > 0 && 0 > best) {
                best = 0;
                bestRow = row;
            }
            double cross = 0;
            double withinY = 0;
            for (int kappa = tau + 1; kappa <= end; kappa++) {
                int m = kappa - tau;
                double[] last = prefix[kappa - 1];
                cross += last[tau] - last[start];
                withinY += last[kappa - 1] - last[tau];
                double q = 2 * cross / (m + n)
                        - (n > 1 ? 2.0 * m / ((m + n) * (n - 1.0)) * withinX : 0)
                        - (m > 1 ? 2.0 * n / ((m + n) * (m - 1.0)) * withinY : 0);
                if (q > best) {
                    best = q;
                    bestRow = row;
                }
            }
        }
        return new Candidate(start + 1 + bestRow, best);
    }
}
