package io.tailstream.reporter.report;

import java.util.List;

/**
 * A localizable sentence: a message key and its arguments ({@code {0}}, {@code {1}}, ... in the message).
 * Arguments are data (target names, numbers), never words.
 */
public record Text(String key, List<String> args) {
    public Text {
        args = List.copyOf(args);
    }

    public static Text of(String key, Object... args) {
        return new Text(key, java.util.Arrays.stream(args).map(String::valueOf).toList());
    }
}
