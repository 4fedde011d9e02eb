package io.tailstream.cli;

/** Entry point of the {@code tailstream} command. The only place that calls {@code System.exit}. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(Cli.commandLine().execute(args));
    }
}
