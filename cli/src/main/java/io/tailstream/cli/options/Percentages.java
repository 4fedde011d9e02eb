package io.tailstream.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Percentages given on the command line: {@code 5%} or {@code 5}, at least 0. */
public final class Percentages {

    private Percentages() {}

    /**
     * @param option the option's name, for the message ({@code --threshold})
     * @throws ParameterException naming the option and the value if it is not a finite percentage >= 0
     */
    public static double parse(CommandSpec spec, String option, String s) {
        String v = s.trim();
        if (v.endsWith("%")) {
            v = v.substring(0, v.length() - 1).trim();
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), option + " '" + s + "' is not a percentage (e.g. 5%)", e);
        }
        if (!(d >= 0) || Double.isInfinite(d)) {
            throw new ParameterException(spec.commandLine(), option + " '" + s + "' must be a percentage >= 0");
        }
        return d;
    }
}
