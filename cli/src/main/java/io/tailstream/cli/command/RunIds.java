package io.tailstream.cli.command;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Run ids: readable, sortable by start time, unique across machines ({@code demo-20261130-041502-9f3a1c}). */
final class RunIds {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    private RunIds() {}

    static String next(String prefix) {
        byte[] suffix = new byte[3];
        RANDOM.nextBytes(suffix);
        return prefix + "-" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-" + HexFormat.of().formatHex(suffix);
    }

    /** A folder-name time stamp for default output folders. */
    static String stamp() {
        return ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
    }
}
