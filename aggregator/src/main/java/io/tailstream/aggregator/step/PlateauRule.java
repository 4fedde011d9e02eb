package io.tailstream.aggregator.step;

import io.tailstream.analysis.Plateau;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The plan's plateau rule as {@code RunStarted.settings} carries it. Stateless and thread safe. */
final class PlateauRule {

    private static final Pattern SETTING = Pattern.compile(
            "\\s*minGainPct\\s*=\\s*([0-9.eE+-]+)\\s*,\\s*patience\\s*=\\s*([0-9]+)\\s*");

    private PlateauRule() {}

    /**
     * The plan's rule from {@code RunStarted.settings}: the producer writes {@code plateau} as
     * {@code "minGainPct=5.0, patience=1"}, or {@code "none"}; null when absent, {@code none} or unreadable (the
     * caller then uses {@link Plateau#DEFAULT} and says so in the summary).
     */
    public static Plateau fromSettings(Map<String, String> settings) {
        String value = settings == null ? null : settings.get("plateau");
        if (value == null) {
            return null;
        }
        Matcher m = SETTING.matcher(value);
        if (!m.matches()) {
            return null;
        }
        try {
            return Plateau.ifValid(Double.parseDouble(m.group(1)), Integer.parseInt(m.group(2)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
