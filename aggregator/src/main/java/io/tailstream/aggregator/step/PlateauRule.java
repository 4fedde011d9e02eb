package io.tailstream.aggregator.step;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a concurrency sweep reached its plateau, by the producer's sweep-stop rule ({@code producer/.../driver/
 * Plateau}): in ascending thread order, a level whose QPS gains less than {@code minGainPct} % over the best QPS of
 * the lower levels is flat; {@code patience} flat levels in a row make the plateau. It began at the level that held
 * that best QPS when the deciding run of flat levels started: the last level the curve rose to. Immutable.
 *
 * @param minGainPct least gain, % of the best lower level, that still counts as rising
 * @param patience   flat levels in a row that make a plateau
 */
record PlateauRule(double minGainPct, int patience) {

    /** The rule when the run's plan set none: 5 % (the producer's documented example), one flat level. */
    public static final PlateauRule DEFAULT = new PlateauRule(5.0, 1);

    private static final Pattern SETTING = Pattern.compile(
            "\\s*minGainPct\\s*=\\s*([0-9.eE+-]+)\\s*,\\s*patience\\s*=\\s*([0-9]+)\\s*");

    public PlateauRule {
        if (!(minGainPct >= 0 && minGainPct <= 100_000)) {
            throw new IllegalArgumentException("plateau minGainPct must be in 0..100000, was " + minGainPct);
        }
        if (patience < 1 || patience > 100) {
            throw new IllegalArgumentException("plateau patience must be in 1..100, was " + patience);
        }
    }

    /**
     * The plan's rule from {@code RunStarted.settings}: the producer writes {@code plateau} as
     * {@code "minGainPct=5.0, patience=1"}, or {@code "none"}; null when absent, {@code none} or unreadable (the
     * caller then uses {@link #DEFAULT} and says so in the summary).
     */
    public static PlateauRule fromSettings(Map<String, String> settings) {
        String value = settings == null ? null : settings.get("plateau");
        if (value == null) {
            return null;
        }
        Matcher m = SETTING.matcher(value);
        if (!m.matches()) {
            return null;
        }
        try {
            return new PlateauRule(Double.parseDouble(m.group(1)), Integer.parseInt(m.group(2)));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Index into {@code qps} (one value per level, ascending threads) of the level where the plateau began, or -1 if
     * the levels never made one.
     */
    public int begin(List<Double> qps) {
        int flat = 0;
        int base = -1;
        double best = Double.NaN;
        int bestIndex = -1;
        for (int i = 0; i < qps.size(); i++) {
            double q = qps.get(i);
            if (bestIndex < 0) {
                best = q;
                bestIndex = i;
                continue;
            }
            if (q < best * (1 + minGainPct / 100.0)) {
                if (flat == 0) {
                    base = bestIndex;
                }
                flat++;
                if (flat >= patience) {
                    return base;
                }
            } else {
                flat = 0;
            }
            if (q > best) {
                best = q;
                bestIndex = i;
            }
        }
        return -1;
    }
}
