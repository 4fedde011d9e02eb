package io.tailstream.cli.options;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --archive DIR} of the commands that read an existing archive ({@code query}, {@code runs}, {@code compare}). */
public final class ArchiveOptions {

    @Option(names = "--archive", paramLabel = "DIR", required = true, description = "Archive folder.")
    public Path archive;

    /** The archive folder; a usage error if it does not exist. */
    public Path existing(CommandSpec spec) {
        if (!Files.isDirectory(archive)) {
            throw new ParameterException(spec.commandLine(), "--archive " + archive + ": no such folder");
        }
        return archive;
    }
}
