package io.tailstream.reporter.report;

/**
 * Min/max-preserving down-sampling of a time series for display: the points are cut into equal index buckets and
 * each bucket keeps its lowest and its highest point, in time order. A one-second dip (a stall) or spike (a
 * latency outlier) therefore stays visible at any zoom-out, which averaging would hide. Only charts use it; table
 * figures are always computed from every sample. Stateless and thread safe.
 */
final class Downsample {

    /** Buckets per chart: 2 points each, so a chart carries at most about 2,400 points. */
    public static final int DEFAULT_BUCKETS = 1200;

    private Downsample() {}

    /** Indexes of the points to keep, ascending; every index when {@code n <= 2 * buckets}. */
    public static int[] minMax(double[] values, int buckets) {
        int n = values.length;
        if (buckets < 1) {
            throw new IllegalArgumentException("buckets must be at least 1, was " + buckets);
        }
        if (n <= 2 * buckets) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] keep = new int[2 * buckets];
        int k = 0;
        for (int b = 0; b < buckets; b++) {
            int from = (int) ((long) b * n / buckets);
            int to = (int) ((long) (b + 1) * n / buckets);
            int lo = from;
            int hi = from;
            for (int i = from + 1; i < to; i++) {
                if (values[i] < values[lo]) {
                    lo = i;
                }
                if (values[i] > values[hi]) {
                    hi = i;
                }
            }
            if (lo == hi) {
                keep[k++] = lo;
            } else {
                keep[k++] = Math.min(lo, hi);
                keep[k++] = Math.max(lo, hi);
            }
        }
        return java.util.Arrays.copyOf(keep, k);
    }

    static long[] pick(long[] a, int[] idx) {
        long[] out = new long[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = a[idx[i]];
        }
        return out;
    }

    static double[] pick(double[] a, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = a[idx[i]];
        }
        return out;
    }
}
