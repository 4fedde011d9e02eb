package io.tailstream.reporter.report;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * The report's labels in one language, from {@code messages[_zh_CN].properties} (read as UTF-8), and the
 * formatting of {@link Text}: {@code {0}}, {@code {1}}, ... replaced by the arguments as given (no number
 * formatting, so a figure reads the same in every language). Immutable and thread safe.
 */
final class Messages {

    private final Map<String, String> map;

    private Messages(Map<String, String> map) {
        this.map = Map.copyOf(map);
    }

    static Messages of(Locale locale) {
        ResourceBundle b = ResourceBundle.getBundle("io.tailstream.reporter.report.messages", locale,
                ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
        Map<String, String> m = new HashMap<>();
        for (String k : b.keySet()) {
            m.put(k, b.getString(k));
        }
        return new Messages(m);
    }

    /** Every label, for the template. */
    Map<String, String> map() {
        return map;
    }

    /**
     * @throws MissingResourceException if the key has no message (a template or code bug, never silent)
     */
    String get(String key) {
        String v = map.get(key);
        if (v == null) {
            throw new MissingResourceException("no report message '" + key + "'", "messages", key);
        }
        return v;
    }

    String format(Text t) {
        String s = get(t.key());
        for (int i = 0; i < t.args().size(); i++) {
            s = s.replace("{" + i + "}", t.args().get(i));
        }
        return s;
    }
}
