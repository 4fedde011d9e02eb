package io.tailstream.infra.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Java process started from this one: the same {@code java} and, unless given another, the same class path, so a
 * Kafka node, an archiver or a whole {@code tailstream} command runs in a JVM of its own (its own heap, its own
 * scheduling group, or something to kill). Every child of tailstream, its tests and its benchmarks starts here.
 *
 * <pre>{@code
 * Process p = ChildJvm.of(KafkaNode.class).heap("512m").jvmOptions("-XX:+UseSerialGC")
 *         .args(properties.toString()).start(log);
 * }</pre>
 *
 * <p>Immutable: each method returns a new description; {@link #start} may be called more than once.
 */
public final class ChildJvm {

    /**
     * System property naming JVM options (space-separated) that every child gets before its own, and passes on to its
     * children: the integration tests set {@code -XX:TieredStopAtLevel=1}, since their brokers and commands live
     * seconds, not hours.
     */
    public static final String EXTRA_OPTIONS_PROPERTY = "tailstream.childJvmOptions";

    private final List<String> prefix;
    private final List<String> jvmOptions;
    private final String classPath;
    private final String mainClass;
    private final List<String> args;

    private ChildJvm(List<String> prefix, List<String> jvmOptions, String classPath, String mainClass,
                     List<String> args) {
        this.prefix = List.copyOf(prefix);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.classPath = classPath;
        this.mainClass = mainClass;
        this.args = List.copyOf(args);
    }

    /** A child running {@code mainClass}'s {@code main} on this JVM's class path. */
    public static ChildJvm of(Class<?> mainClass) {
        return of(mainClass.getName());
    }

    /** A child running the named class's {@code main} on this JVM's class path. */
    public static ChildJvm of(String mainClass) {
        return new ChildJvm(List.of(), List.of(), System.getProperty("java.class.path"),
                Objects.requireNonNull(mainClass, "mainClass"), List.of());
    }

    /** With {@code -Xmx} (e.g. {@code "256m"}). */
    public ChildJvm heap(String max) {
        return jvmOptions("-Xmx" + max);
    }

    /** With these JVM options after the ones given so far. */
    public ChildJvm jvmOptions(String... options) {
        return jvmOptions(List.of(options));
    }

    /** With these JVM options after the ones given so far. */
    public ChildJvm jvmOptions(List<String> options) {
        return new ChildJvm(prefix, concat(jvmOptions, options), classPath, mainClass, args);
    }

    /** Started through a command that runs the rest (e.g. {@code taskset -c 0}, {@code chrt --idle 0}). */
    public ChildJvm prefix(List<String> command) {
        return new ChildJvm(concat(prefix, command), jvmOptions, classPath, mainClass, args);
    }

    /** On another class path ({@code File.pathSeparator}-separated). */
    public ChildJvm classPath(String path) {
        return new ChildJvm(prefix, jvmOptions, Objects.requireNonNull(path, "path"), mainClass, args);
    }

    /** With these program arguments after the ones given so far. */
    public ChildJvm args(String... arguments) {
        return args(List.of(arguments));
    }

    /** With these program arguments after the ones given so far. */
    public ChildJvm args(List<String> arguments) {
        return new ChildJvm(prefix, jvmOptions, classPath, mainClass, concat(args, arguments));
    }

    private static List<String> concat(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }

    /**
     * The command line: prefix, {@code java}, the options of {@link #EXTRA_OPTIONS_PROPERTY}, JVM options, class path,
     * main class, arguments.
     */
    public List<String> command() {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String extra = System.getProperty(EXTRA_OPTIONS_PROPERTY, "").strip();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
            command.add("-D" + EXTRA_OPTIONS_PROPERTY + "=" + extra);
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        return command;
    }

    /** A process builder for the command line, for callers that redirect its streams themselves. */
    public ProcessBuilder processBuilder() {
        return new ProcessBuilder(command());
    }

    /**
     * Starts the child with its standard output and error appended to {@code log}.
     *
     * @throws UncheckedIOException the process could not be started (the message holds the command line)
     */
    public Process start(Path log) {
        try {
            return processBuilder().redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", command()), e);
        }
    }

    @Override
    public String toString() {
        return String.join(" ", command());
    }
}
