package io.tailstream.reporter.history;

import io.tailstream.analysis.change.ChangePoint;
import io.tailstream.analysis.change.ChangePointDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * One series of comparable runs, oldest first, with its change points. Immutable.
 *
 * @param key     what the runs have in common
 * @param metric  the figure followed
 * @param points  one per run that completed a step of the series, by start time
 * @param changes change points, oldest first
 */
public record Series(SeriesKey key, Metric metric, List<SeriesPoint> points, List<SeriesChange> changes) {

    /** Confidence of each change's interval. */
    public static final double CONFIDENCE = 0.95;

    public Series {
        points = List.copyOf(points);
        changes = List.copyOf(changes);
    }

    /** The series of {@code points} with the change points {@code detector} finds in their values. */
    public static Series analyse(SeriesKey key, Metric metric, List<SeriesPoint> points,
                                 ChangePointDetector detector) {
        double[] values = points.stream().mapToDouble(SeriesPoint::value).toArray();
        List<ChangePoint> cps = detector.detect(values);
        List<SeriesChange> changes = new ArrayList<>();
        for (ChangePoint cp : cps) {
            var s = cp.segments();
            List<SeriesPoint> before = points.subList(s.from(), s.at());
            List<SeriesPoint> after = points.subList(s.at(), s.to());
            boolean rose = s.meanAfter() > s.meanBefore();
            changes.add(new SeriesChange(cp.index(), before.get(before.size() - 1).runId(), after.get(0).runId(),
                    before.size(), after.size(), s.meanBefore(), s.meanAfter(), cp.change(CONFIDENCE), cp.pValue(),
                    rose != metric.higherIsBetter(),
                    Fingerprint.changes(before.stream().map(SeriesPoint::fingerprint).toList(),
                            after.stream().map(SeriesPoint::fingerprint).toList())));
        }
        return new Series(key, metric, points, changes);
    }
}
