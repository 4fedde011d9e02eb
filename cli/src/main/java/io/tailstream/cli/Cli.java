package io.tailstream.cli;

import io.tailstream.cli.command.TailstreamCommand;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Builds the picocli command line with tailstream's error conventions:
 * <ul>
 *   <li>bad usage (unknown option, bad value, missing parameter): one line on stderr, exit code 2;</li>
 *   <li>a failure while running ({@link UserFacingException} or any other exception): one line naming what failed
 *       and why, with the causes' messages, exit code 1; the stack trace only with {@code TAILSTREAM_DEBUG=1}.</li>
 * </ul>
 */
public final class Cli {

    public static final int EXIT_USAGE = 2;
    public static final int EXIT_FAILURE = 1;
    /** A signal (Ctrl-C) stopped a run; what it measured until then was archived and reported (128 + SIGINT). */
    public static final int EXIT_INTERRUPTED = 130;
    /**
     * The PostgreSQL driver logs through java.util.logging, whose console handler prints stack traces: a connection
     * closed after its server went away logs a warning with one ("Failed to closed stream"). The run reports the
     * lost connections itself, so only the driver's severe messages are printed. Held here: java.util.logging keeps
     * only weak references to its loggers, and their levels with them.
     */
    private static final java.util.logging.Logger POSTGRESQL_DRIVER_LOG = quiet("org.postgresql");

    private Cli() {}

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.SEVERE);
        return logger;
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new TailstreamCommand());
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            err.println(name + ": " + usageError(ex) + " (see '" + name + " --help')");
            err.flush();
            return EXIT_USAGE;
        });
        cl.setExecutionStrategy(parseResult -> {
            rejectUnmatched(parseResult);
            return new CommandLine.RunLast().execute(parseResult);
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println(commandLine.getCommandSpec().qualifiedName() + ": error: " + describe(ex));
            if ("1".equals(System.getenv("TAILSTREAM_DEBUG"))) {
                ex.printStackTrace(err);
            }
            err.flush();
            return EXIT_FAILURE;
        });
        return cl;
    }

    /**
     * picocli lets {@code --help} win over arguments it could not match, so {@code tailstream UNKNOWN --help} would
     * print the top-level help and exit 0: an unknown command or argument is bad usage whatever else is given.
     */
    private static void rejectUnmatched(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (!p.unmatched().isEmpty()) {
                throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(), p.unmatched());
            }
        }
    }

    /** The one-line message of a usage error; an unknown word where a command was expected is named as such. */
    private static String usageError(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                && !ex.getCommandLine().getSubcommands().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            return "unknown command '" + u.getUnmatched().get(0) + "'";
        }
        return ex.getMessage();
    }

    /** The exception's message followed by its causes' messages, without class-name noise where there is a message. */
    static String describe(Throwable ex) {
        StringBuilder sb = new StringBuilder();
        Throwable t = ex;
        String last = null;
        int depth = 0;
        while (t != null && depth++ < 8) {
            String msg = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
            if (last == null || !last.contains(msg)) {
                if (sb.length() > 0) {
                    sb.append(": ");
                }
                sb.append(msg);
                last = msg;
            }
            t = t.getCause();
        }
        return sb.toString();
    }
}
