package io.tailstream.reporter.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The verdict rule computed without the product's interval code, for tests to judge it by. Fieller's confidence set
 * of the ratio {@code ma / mb} of two mean rounds is a bounded interval exactly when the denominator's mean is told
 * apart from 0 ({@code mb^2 > t^2 vb}), and it excludes 1 exactly when Welch's t-test tells the means apart
 * ({@code |ma - mb| > t sqrt(va + vb)}, the same inequality at {@code r = 1}); it then lies on the side of the larger
 * mean. So the best beats another candidate when both hold and the exact figures' difference exceeds the noise: the
 * largest coefficient of variation over any candidate's rounds.
 */
final class VerdictReference {

    private VerdictReference() {}

    /** A target's exact figure and the same figure of each of its rounds. */
    record Candidate(double value, List<Double> rounds) {}

    /** The best target first, then those tied with it (empty tail: a win). Every candidate has 2 or more rounds. */
    static List<String> judge(Map<String, Candidate> candidates, boolean higherIsBetter) {
        List<Map.Entry<String, Candidate>> sorted = new ArrayList<>(candidates.entrySet());
        Comparator<Map.Entry<String, Candidate>> byValue = Comparator.comparingDouble(e -> e.getValue().value());
        sorted.sort((higherIsBetter ? byValue.reversed() : byValue).thenComparing(Map.Entry::getKey));
        double noise = 0;
        for (Candidate c : candidates.values()) {
            noise = Math.max(noise, Math.sqrt(variance(c.rounds())) / Math.abs(mean(c.rounds())) * 100);
        }
        Candidate best = sorted.get(0).getValue();
        List<String> out = new ArrayList<>(List.of(sorted.get(0).getKey()));
        for (Map.Entry<String, Candidate> e : sorted.subList(1, sorted.size())) {
            Candidate c = e.getValue();
            double va = variance(best.rounds()) / best.rounds().size();
            double vb = variance(c.rounds()) / c.rounds().size();
            double gap = Math.abs(mean(best.rounds()) - mean(c.rounds()));
            boolean apart;
            if (va + vb == 0) {
                apart = gap > 0;
            } else {
                double df = (va + vb) * (va + vb) / (va * va / (best.rounds().size() - 1)
                        + vb * vb / (c.rounds().size() - 1));
                double t = TDistribution.of(df).inverseSurvivalProbability(0.025);
                double mb = mean(c.rounds());
                apart = gap > t * Math.sqrt(va + vb) && mb * mb > t * t * vb;
            }
            double difference = Math.abs(best.value() / c.value() - 1) * 100;
            boolean sameSide = higherIsBetter == (mean(best.rounds()) > mean(c.rounds()));
            if (!(apart && sameSide && difference > noise)) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    static double mean(List<Double> x) {
        return x.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    static double variance(List<Double> x) {
        double m = mean(x);
        return x.stream().mapToDouble(v -> (v - m) * (v - m)).sum() / (x.size() - 1);
    }
}
