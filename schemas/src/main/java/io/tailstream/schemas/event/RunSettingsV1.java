package io.tailstream.schemas.event;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads version-1 {@link RunSettings}: the JSON object of strings producers wrote before settings were typed, as
 * {@code Map.toString}/{@code List.toString} and hand-made formats left them. The only code that parses those
 * strings. A value that is absent, {@code none}, {@code product default} or unreadable reads as null; keys it does
 * not know are ignored, and so is {@code target.NAME.password} (always {@code ***}). Stateless and thread safe.
 */
final class RunSettingsV1 {

    /** {@code plateau}: {@code minGainPct=5.0, patience=1}. */
    private static final Pattern PLATEAU = Pattern.compile(
            "\\s*minGainPct\\s*=\\s*([0-9.eE+-]+)\\s*,\\s*patience\\s*=\\s*([0-9]+)\\s*");
    /** {@code producers}: {@code 3 (threads split, joinTimeout PT5M)}. */
    private static final Pattern PRODUCERS = Pattern.compile(
            "\\s*([0-9]+)\\s*\\(threads (split|each), joinTimeout (\\S+)\\)\\s*");
    private static final String TARGET = "target.";
    private static final String WORKLOAD = "workload.";

    private RunSettingsV1() {}

    static RunSettings read(JsonNode map) {
        Map<String, Map<String, JsonNode>> targetKeys = new TreeMap<>();
        Map<String, Map<String, String>> workloads = new TreeMap<>();
        map.properties().forEach(e -> {
            String key = e.getKey();
            int dot = key.lastIndexOf('.');
            if (key.startsWith(TARGET) && dot > TARGET.length()) {
                targetKeys.computeIfAbsent(key.substring(TARGET.length(), dot), t -> new TreeMap<>())
                        .put(key.substring(dot + 1), e.getValue());
            } else if (key.startsWith(WORKLOAD) && key.length() > WORKLOAD.length()) {
                Map<String, String> options = options(text(e.getValue()));
                if (options != null) {
                    workloads.put(key.substring(WORKLOAD.length()), options);
                }
            }
        });
        Map<String, RunSettings.TargetSetting> targets = new LinkedHashMap<>();
        targetKeys.forEach((name, t) -> targets.put(name, target(t)));
        String loop = text(map.get("loop"));
        return new RunSettings(1,
                each(list(map.get("threads")), Integer::valueOf),
                number(map.get("rounds"), Integer::valueOf),
                number(map.get("warmupMs"), Long::valueOf),
                number(map.get("measureMs"), Long::valueOf),
                number(map.get("transactions"), Long::valueOf),
                "closed".equals(loop) || "open".equals(loop) ? loop : null,
                number(map.get("rate"), Double::valueOf),
                plateau(text(map.get("plateau"))),
                number(map.get("clientCpuLimitPct"), Double::valueOf),
                durationMs(text(map.get("reconnectTimeout"))),
                number(map.get("intervalSeconds"), Integer::valueOf),
                bool(text(map.get("prepare"))),
                "product default".equals(text(map.get("ignoredErrors"))) ? null : list(map.get("ignoredErrors")),
                list(map.get("accept")),
                producers(text(map.get("producers"))),
                list(map.get("variables")),
                targets.isEmpty() ? null : targets,
                workloads.isEmpty() ? null : workloads);
    }

    private static RunSettings.TargetSetting target(Map<String, JsonNode> t) {
        // "5602.0 CNY": the amount, then the currency when there is one
        String cost = text(t.get("monthlyCost"));
        int space = cost == null ? -1 : cost.indexOf(' ');
        Double monthlyCost = parse(space < 0 ? cost : cost.substring(0, space), Double::valueOf);
        String currency = space < 0 || monthlyCost == null ? null : cost.substring(space + 1).trim();
        // written only for targets that have some; URLs may hold commas (several hosts), List.toString
        // separated them with ", "
        String readOnly = text(t.get("readOnlyUrls"));
        List<String> readOnlyUrls = readOnly == null ? List.of()
                : items(readOnly.startsWith("[") && readOnly.endsWith("]")
                        ? readOnly.substring(1, readOnly.length() - 1).split(", ") : new String[] {readOnly});
        return new RunSettings.TargetSetting(text(t.get("url")), list(t.get("ignoredErrors")), readOnlyUrls,
                text(t.get("user")), monthlyCost, currency, number(t.get("nodes"), Integer::valueOf),
                text(t.get("notes")));
    }

    /** A scalar's text, trimmed; null when absent, JSON null or not a scalar. */
    private static String text(JsonNode n) {
        return n == null || !n.isValueNode() || n.isNull() ? null : n.asText().trim();
    }

    /**
     * A list as {@code List.toString} wrote it ({@code [a, b]}, {@code []}), brackets optional, items trimmed and
     * unquoted; or a JSON array of its items. Blank items dropped; null when absent.
     */
    private static List<String> list(JsonNode n) {
        if (n != null && n.isArray()) {
            List<String> out = new ArrayList<>();
            n.forEach(x -> {
                if (!x.asText().isBlank()) {
                    out.add(x.asText());
                }
            });
            return out;
        }
        String s = text(n);
        if (s == null) {
            return null;
        }
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        return items(s.split(","));
    }

    private static List<String> items(String[] raw) {
        List<String> out = new ArrayList<>();
        for (String x : raw) {
            String item = x.trim().replace("\"", "").replace("'", "");
            if (!item.isBlank()) {
                out.add(item);
            }
        }
        return out;
    }

    /** Every item parsed, or null when the list is absent or an item is not a number. */
    private static <T> List<T> each(List<String> items, Function<String, T> parse) {
        if (items == null) {
            return null;
        }
        List<T> out = new ArrayList<>();
        for (String item : items) {
            T value = parse(item, parse);
            if (value == null) {
                return null;
            }
            out.add(value);
        }
        return out;
    }

    private static <T> T number(JsonNode n, Function<String, T> parse) {
        return parse(text(n), parse);
    }

    /** The parsed value, or null when absent or not a number ({@code none} included). */
    private static <T> T parse(String s, Function<String, T> parse) {
        if (s == null) {
            return null;
        }
        try {
            return parse.apply(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Boolean bool(String s) {
        return "true".equals(s) ? Boolean.TRUE : "false".equals(s) ? Boolean.FALSE : null;
    }

    /** An ISO-8601 duration ({@code PT45S}) in ms, or null. */
    private static Long durationMs(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Duration.parse(s).toMillis();
        } catch (DateTimeParseException | ArithmeticException e) {
            return null;
        }
    }

    private static RunSettings.PlateauSetting plateau(String s) {
        Matcher m = s == null ? null : PLATEAU.matcher(s);
        if (m == null || !m.matches()) {
            return null;
        }
        Double minGainPct = parse(m.group(1), Double::valueOf);
        Integer patience = parse(m.group(2), Integer::valueOf);
        return minGainPct == null || patience == null ? null
                : new RunSettings.PlateauSetting(minGainPct, patience);
    }

    private static RunSettings.ProducersSetting producers(String s) {
        Matcher m = s == null ? null : PRODUCERS.matcher(s);
        if (m == null || !m.matches()) {
            return null;
        }
        Integer count = parse(m.group(1), Integer::valueOf);
        Long joinTimeoutMs = durationMs(m.group(3));
        return count == null || joinTimeoutMs == null ? null
                : new RunSettings.ProducersSetting(count, m.group(2).equals("split"), joinTimeoutMs);
    }

    /** Workload options as {@code Map.toString} wrote them: {@code {tables=8, table_size=10000}}; null if not. */
    private static Map<String, String> options(String s) {
        if (s == null || !s.startsWith("{") || !s.endsWith("}")) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        String inner = s.substring(1, s.length() - 1).trim();
        if (inner.isEmpty()) {
            return out;
        }
        for (String pair : inner.split(", ")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                return null;
            }
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }
}
