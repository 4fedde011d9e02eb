package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Output folders of commands that write an archive and a report. */
final class OutDirs {

    private OutDirs() {}

    /**
     * The given folder (created if missing), or a new folder {@code <prefix><time>} in the current directory,
     * announced on the console so the user knows where the results are.
     */
    static Path resolve(Path requested, String prefix, PrintStream console) {
        Path dir = requested != null ? requested : Path.of(prefix + RunIds.stamp()).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserFacingException("cannot create the output folder " + dir + ": " + e.getMessage(), e);
        }
        if (requested == null) {
            console.println("output folder: " + dir);
        }
        return dir;
    }
}
