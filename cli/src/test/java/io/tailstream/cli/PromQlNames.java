package io.tailstream.cli;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads, by a deliberately small parser, enough for the expressions of
 * {@code infra/deploy} (alert rules, dashboard queries):
 *
 * <ol>
 *   <li>string literals ({@code "..."}, {@code '...'}), label matchers ({@code {...}}), range and subquery brackets
 *       ({@code [5m]}) and the label lists of {@code by}, {@code without}, {@code on}, {@code ignoring},
 *       {@code group_left} and {@code group_right} ({@code (...)}) are removed;</li>
 *   <li>every remaining identifier ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}, not part of a number such as {@code 1e3}) is a
 *       metric name, unless it is followed by {@code (} (a function or an aggregation), is a keyword or operator
 *       ({@code and}, {@code or}, {@code unless}, {@code bool}, {@code offset}, {@code by}, ...), an aggregation
 *       followed by its grouping ({@code max by (...) (...)}: the grouping is removed first, so {@code max} is
 *       followed by {@code (}), or a number word ({@code Inf}, {@code NaN}).</li>
 * </ol>
 *
 * What it does not handle (absent from those files): {@code __name__} matchers, the {@code @} modifier, comments.
 */
final class PromQlNames {

    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "Inf", "inf", "NaN", "nan");

    private PromQlNames() {}

    /** The metric names {@code expr} reads. */
    static Set<String> of(String expr) {
        String s = STRINGS.matcher(expr).replaceAll(" ");
        s = MATCHERS.matcher(s).replaceAll(" ");
        s = RANGES.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            if (m.group(2) == null && !KEYWORDS.contains(m.group(1))) {
                names.add(m.group(1));
            }
        }
        return names;
    }
}
