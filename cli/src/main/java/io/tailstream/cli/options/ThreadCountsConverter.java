package io.tailstream.cli.options;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses a concurrency sweep: {@code 8}, {@code 1,8,16,32}, or {@code exp:1..512} (powers of two from 1 to 512).
 * Values must be positive and strictly increasing.
 */
public final class ThreadCountsConverter implements CommandLine.ITypeConverter<List<Integer>> {

    private static final Pattern EXP = Pattern.compile("exp:(\\d+)\\.\\.(\\d+)");

    @Override
    public List<Integer> convert(String value) {
        return parse(value);
    }

    public static List<Integer> parse(String value) {
        String v = value.trim();
        List<Integer> out = new ArrayList<>();
        Matcher m = EXP.matcher(v);
        if (m.matches()) {
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            if (from < 1 || to < from || to > 100_000) {
                throw new CommandLine.TypeConversionException("'" + value + "': need 1 <= from <= to <= 100000");
            }
            for (long t = from; t <= to; t *= 2) {
                out.add((int) t);
            }
            return List.copyOf(out);
        }
        for (String part : v.split(",")) {
            try {
                int n = Integer.parseInt(part.trim());
                if (n < 1 || n > 100_000) {
                    throw new CommandLine.TypeConversionException("'" + value + "': thread count " + n
                            + " is out of range 1..100000");
                }
                if (!out.isEmpty() && n <= out.get(out.size() - 1)) {
                    throw new CommandLine.TypeConversionException("'" + value + "': thread counts must increase");
                }
                out.add(n);
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a thread count list (examples: 8, 1,8,16,32, exp:1..512)");
            }
        }
        return List.copyOf(out);
    }
}
