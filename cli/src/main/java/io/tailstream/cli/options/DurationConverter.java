package io.tailstream.cli.options;

import io.tailstream.producer.plan.Durations;
import java.time.Duration;
import picocli.CommandLine;

/** Parses {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1h30m}; a bare number means seconds. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    public static Duration parse(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
