package io.tailstream.cli.options;

import io.tailstream.producer.plan.ThreadSweep;
import java.util.List;
import picocli.CommandLine;

/**
 * Parses a concurrency sweep: {@code 8}, {@code 1,8,16,32}, or {@code exp:1..512} (powers of two from 1 to 512).
 * Values must be positive and strictly increasing.
 */
public final class ThreadCountsConverter implements CommandLine.ITypeConverter<List<Integer>> {

    @Override
    public List<Integer> convert(String value) {
        return parse(value);
    }

    public static List<Integer> parse(String value) {
        try {
            return ThreadSweep.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
