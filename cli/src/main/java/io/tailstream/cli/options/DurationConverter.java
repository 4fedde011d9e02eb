package io.tailstream.cli.options;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1h30m}; a bare number means seconds. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(v));
        }
        Matcher m = PART.matcher(v);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                break;
            }
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
            end = m.end();
        }
        if (end != v.length() || v.isEmpty()) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration (examples: 500ms, 10s, 2m, 1h30m)");
        }
        return total;
    }
}
