package io.tailstream.analysis.change;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Finds the points where a series of measurements changed, by E-Divisive means with a Student's t-test as Apache
 * Otava (formerly Hunter) does it: Fleming et al., "Hunter: Using Change Point Detection to Hunt for Performance
 * Regressions", ICPE 2023. A t-test in place of the original permutation test makes the result repeatable: the same
 * series always gives the same change points.
 * <ol>
 *   <li><b>Split</b>: windows of {@code windowLength} points slide over the series by half a window (or to the last
 *       change point found). In each, the split that maximises the energy statistic ({@link EnergyStatistic}) is
 *       tested against the segment it divides; while the t-test's p-value is at most a relaxed threshold (10 x
 *       {@code maxPValue} below 0.05, 2 x below 0.5), it is kept and the segments are searched again. The union of
 *       all windows' points are the weak change points.</li>
 *   <li><b>Merge</b>: each weak point is tested between its neighbours on the whole series. Repeatedly, the point
 *       with the highest p-value is dropped while that p-value is not below {@code maxPValue}; then a point next to a
 *       segment shorter than {@code minSegment} (of those the one whose means differ least: the short segment joins the
 *       neighbour it is most like); then the point of the
 *       smallest magnitude while it is not above {@code minMagnitude}. After each drop its two neighbours are
 *       tested again on their new segments, so every decision, and every figure of the result, is the test of the
 *       segments as they are. (Otava retests the two points after the drop and leaves the one before it with its
 *       old test; on Otava's published cases that keeps a few points whose segments, tested as they are, do not
 *       pass. This class's tests name each.)</li>
 * </ol>
 * {@code maxPValue} is the threshold for a series of up to a window; longer series divide it by their length in
 * windows ({@link ChangePointSettings#pValueThreshold}). With {@link ChangePointSettings#otava} the result is Otava's
 * {@code compute_change_points} but for the retest above. Cost: {@code O(n w)} per change point found in a window,
 * for a series of {@code n} points and windows of {@code w}. Immutable and thread safe.
 */
public final class ChangePointDetector {

    private final ChangePointSettings settings;

    public ChangePointDetector(ChangePointSettings settings) {
        this.settings = settings;
    }

    /** The change points of {@code series}, by index; none for a series of fewer than 2 points. */
    public List<ChangePoint> detect(double[] series) {
        for (int i = 0; i < series.length; i++) {
            if (!Double.isFinite(series[i])) {
                throw new IllegalArgumentException("point " + i + " of the series is not a finite number: "
                        + series[i]);
            }
        }
        double p = settings.pValueThreshold(series.length);
        double firstPass = p < 0.05 ? p * 10 : p < 0.5 ? p * 2 : p;
        List<ChangePoint> weak = compared(series, split(series, firstPass));
        return merge(weak, series, p);
    }

    /** The weak change points: the union over the sliding windows. */
    private List<Integer> split(double[] series, double firstPassPValue) {
        int window = settings.windowLength();
        int step = window / 2;
        TreeSet<Integer> found = new TreeSet<>();
        int start = 0;
        while (start < series.length) {
            int end = Math.min(start + window, series.length);
            List<Integer> inWindow = divide(java.util.Arrays.copyOfRange(series, start, end), firstPassPValue);
            int last = inWindow.isEmpty() ? 0 : inWindow.get(inWindow.size() - 1) + start;
            for (int index : inWindow) {
                found.add(index + start);
            }
            start = Math.max(last, start + step);
        }
        return new ArrayList<>(found);
    }

    /** E-Divisive over one window: split the segment of the best candidate while the split is significant. */
    private static List<Integer> divide(double[] window, double maxPValue) {
        EnergyStatistic energy = new EnergyStatistic(window);
        List<Integer> points = new ArrayList<>();
        while (true) {
            int[] bounds = bounds(points, window.length);
            EnergyStatistic.Candidate best = null;
            int segment = -1;
            for (int s = 0; s + 1 < bounds.length; s++) {
                if (bounds[s + 1] - bounds[s] > 1) {
                    EnergyStatistic.Candidate c = energy.best(bounds[s], bounds[s + 1]);
                    if (best == null || c.qhat() > best.qhat()) {
                        best = c;
                        segment = s;
                    }
                }
            }
            if (best == null) {
                return points;
            }
            SegmentComparison test = SegmentComparison.of(window, bounds[segment], best.index(), bounds[segment + 1]);
            if (!(test.pValue() <= maxPValue)) {
                return points;
            }
            points.add(best.index());
            points.sort(Comparator.naturalOrder());
        }
    }

    private List<ChangePoint> merge(List<ChangePoint> points, double[] series, double maxPValue) {
        List<ChangePoint> cps = new ArrayList<>(points);
        while (!cps.isEmpty()) {
            int weakest = indexOfMax(cps, Comparator.comparingDouble(ChangePoint::pValue));
            if (cps.get(weakest).pValue() < maxPValue) {
                int shortSegment = shortSegment(cps);
                if (shortSegment >= 0) {
                    weakest = shortSegment;
                } else {
                    weakest = indexOfMin(cps, Comparator.comparingDouble(c -> c.segments().magnitude()));
                    if (cps.get(weakest).segments().magnitude() > settings.minMagnitude()) {
                        return cps;
                    }
                }
            }
            cps.remove(weakest);
            // the drop changed the segments of its two neighbours only
            recompute(cps, weakest - 1, series);
            recompute(cps, weakest, series);
        }
        return cps;
    }

    /**
     * The point whose two means differ least among those next to a segment shorter than the minimum, or -1: dropping
     * it joins the short segment to the neighbour it is most like.
     */
    private int shortSegment(List<ChangePoint> cps) {
        int found = -1;
        for (int i = 0; i < cps.size(); i++) {
            SegmentComparison s = cps.get(i).segments();
            if (Math.min(s.pointsBefore(), s.pointsAfter()) < settings.minSegment()
                    && (found < 0 || meanDifference(s) < meanDifference(cps.get(found).segments()))) {
                found = i;
            }
        }
        return found;
    }

    private static double meanDifference(SegmentComparison s) {
        return Math.abs(s.meanAfter() - s.meanBefore());
    }

    private static void recompute(List<ChangePoint> cps, int i, double[] series) {
        if (i < 0 || i >= cps.size()) {
            return;
        }
        int from = i == 0 ? 0 : cps.get(i - 1).index();
        int to = i + 1 == cps.size() ? series.length : cps.get(i + 1).index();
        int at = cps.get(i).index();
        cps.set(i, new ChangePoint(at, SegmentComparison.of(series, from, at, to)));
    }

    /** Each point tested between its neighbours. */
    private static List<ChangePoint> compared(double[] series, List<Integer> indices) {
        List<ChangePoint> out = new ArrayList<>();
        for (int i = 0; i < indices.size(); i++) {
            int from = i == 0 ? 0 : indices.get(i - 1);
            int to = i + 1 == indices.size() ? series.length : indices.get(i + 1);
            out.add(new ChangePoint(indices.get(i), SegmentComparison.of(series, from, indices.get(i), to)));
        }
        return out;
    }

    /** 0, the points, and the series' length: the segment boundaries. */
    private static int[] bounds(List<Integer> points, int length) {
        int[] b = new int[points.size() + 2];
        for (int i = 0; i < points.size(); i++) {
            b[i + 1] = points.get(i);
        }
        b[b.length - 1] = length;
        return b;
    }

    /** First index of the largest element, as Python's {@code max} picks it. */
    private static <T> int indexOfMax(List<T> list, Comparator<T> order) {
        int best = 0;
        for (int i = 1; i < list.size(); i++) {
            if (order.compare(list.get(i), list.get(best)) > 0) {
                best = i;
            }
        }
        return best;
    }

    /** First index of the smallest element, as Python's {@code min} picks it. */
    private static <T> int indexOfMin(List<T> list, Comparator<T> order) {
        return indexOfMax(list, order.reversed());
    }
}
