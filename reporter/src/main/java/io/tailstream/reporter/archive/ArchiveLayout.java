package io.tailstream.reporter.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where everything lives in an archive directory, and how files get there atomically.
 *
 * <pre>
 * archive/
 *   samples/run_id=RUN/tailstream.samples-p0-00000000000000000000-00000000000000004711.parquet
 *   blocks/run_id=RUN/tailstream.samples-p0-...parquet
 *   windows/run_id=RUN/tailstream.windows-p1-...parquet
 *   control/run_id=RUN/tailstream.control-p0-...parquet
 *   steps/run_id=RUN/steps.parquet        (derived from control, replaced as the run progresses)
 *   runs/run_id=RUN/runs.parquet          (derived from control, replaced as the run progresses)
 *   client_health/run_id=RUN/tailstream.control-p0-...parquet
 *   stall_events/run_id=RUN/tailstream.stalls-p0-...parquet
 *   stalls/run_id=RUN/stalls.parquet      (derived from stall_events: last record per stall)
 *   summary_events/run_id=RUN/tailstream.summaries-p0-...parquet
 *   summaries/run_id=RUN/summaries.parquet (derived from summary_events: last record per step and op)
 *   run_summary_events/run_id=RUN/tailstream.run-summaries-p0-...parquet
 *   run_summaries/run_id=RUN/run_summaries.parquet (derived from run_summary_events: the rows of the last record)
 * </pre>
 *
 * A file read from a topic is named after the topic, partition and the first and last offset it covers
 * (zero-padded to 19 digits so names sort by offset). The name is deterministic: re-archiving the same offset
 * range after a crash replaces the file rather than adding a second copy. Run ids are written into directory
 * names as they are when they consist of {@code [A-Za-z0-9._:+-]}; any other byte is percent-encoded.
 *
 * <p>Stateless and thread safe.
 */
public final class ArchiveLayout {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveLayout.class);

    public static final String SAMPLES = "samples";
    public static final String BLOCKS = "blocks";
    public static final String WINDOWS = "windows";
    public static final String CONTROL = "control";
    public static final String STEPS = "steps";
    public static final String RUNS = "runs";
    /** Every {@code client_health} control event, typed. */
    public static final String CLIENT_HEALTH = "client_health";
    /** Every record of {@code tailstream.stalls} as received (open stalls are re-published while they last). */
    public static final String STALL_EVENTS = "stall_events";
    /** One row per stall: the last record per stall key, derived from {@link #STALL_EVENTS}. */
    public static final String STALLS = "stalls";
    /** Every record of {@code tailstream.summaries} as received. */
    public static final String SUMMARY_EVENTS = "summary_events";
    /** One row per step and op: the last summary per key, derived from {@link #SUMMARY_EVENTS}. */
    public static final String SUMMARIES = "summaries";
    /** Every record of {@code tailstream.run-summaries} as received, flattened (one row per group, sweep, pair). */
    public static final String RUN_SUMMARY_EVENTS = "run_summary_events";
    /** The rows of the run's last run summary record, derived from {@link #RUN_SUMMARY_EVENTS}. */
    public static final String RUN_SUMMARIES = "run_summaries";
    /** Every dataset, in the order they are documented. */
    public static final List<String> DATASETS = List.of(SAMPLES, BLOCKS, WINDOWS, CONTROL, STEPS, RUNS, CLIENT_HEALTH,
            STALL_EVENTS, STALLS, SUMMARY_EVENTS, SUMMARIES, RUN_SUMMARY_EVENTS, RUN_SUMMARIES);

    /** The hive partition key of every dataset. Never also a column inside the files (DuckDB lets it win). */
    public static final String RUN_KEY = "run_id";

    static final String TMP_SUFFIX = ".tmp";
    private static final Pattern SOURCE_FILE = Pattern.compile("^(.+)-p(\\d+)-(\\d{19})-(\\d{19})\\.parquet$");

    private ArchiveLayout() {}

    /** {@code archive/dataset/run_id=RUN}. */
    public static Path runDir(Path archive, String dataset, String runId) {
        return archive.resolve(dataset).resolve(RUN_KEY + "=" + encodeRunId(runId));
    }

    /** Glob of all files of a dataset, for DuckDB's {@code read_parquet}. */
    public static String glob(Path archive, String dataset) {
        return archive.toAbsolutePath().resolve(dataset) + "/" + RUN_KEY + "=*/*.parquet";
    }

    /** True if the dataset has at least one file. */
    public static boolean hasFiles(Path archive, String dataset) {
        Path dir = archive.resolve(dataset);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(dir, 2)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + dir, e);
        }
    }

    /** The deterministic name of the file holding one topic partition's offsets {@code from..to} (inclusive). */
    public static String sourceFileName(String topic, int partition, long fromOffset, long toOffset) {
        return String.format("%s-p%d-%019d-%019d.parquet", topic, partition, fromOffset, toOffset);
    }

    /** A file's source range parsed from its name, if it was written from a topic. */
    /**
     * The temporary name of a source file still being written, from the offset of its first record: hidden, and
     * deleted as a stale temporary if the archiver dies before publishing it.
     */
    static String openFileName(String topic, int partition, long fromOffset) {
        return "." + topic + "-p" + partition + "-" + String.format("%019d", fromOffset) + ".parquet" + TMP_SUFFIX;
    }

    public static Optional<SourceRange> parseSourceFileName(String fileName) {
        Matcher m = SOURCE_FILE.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SourceRange(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4))));
    }

    /** The topic partition and inclusive offset range a file was written from. */
    public record SourceRange(String topic, int partition, long fromOffset, long toOffset) {}

    /** Every source range found in the archive's datasets (a range is listed once per file). */
    static List<SourceRange> sourceRanges(Path archive) {
        List<SourceRange> out = new ArrayList<>();
        for (String dataset : DATASETS) {
            Path dir = archive.resolve(dataset);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(dir, 2)) {
                files.map(p -> parseSourceFileName(p.getFileName().toString()))
                        .flatMap(Optional::stream)
                        .forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + dir, e);
            }
        }
        return out;
    }

    /** Deletes temporary files a crashed writer left behind; returns how many. */
    static int deleteStaleTemporaries(Path archive) {
        if (!Files.isDirectory(archive)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(archive, 3)) {
            List<Path> stale = files.filter(p -> p.getFileName().toString().endsWith(TMP_SUFFIX)).toList();
            for (Path p : stale) {
                Files.deleteIfExists(p);
            }
            return stale.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning temporary files under " + archive, e);
        }
    }

    /** Writes a file under a temporary name, forces it to disk, then renames it over {@code target} atomically. */
    static void writeAtomically(Path target, FileBody body) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(target.getFileName() + TMP_SUFFIX);
        Files.deleteIfExists(tmp);
        try {
            body.writeTo(tmp);
            publish(tmp, target);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Forces a complete temporary file to disk and renames it over {@code target} (in the same directory)
     * atomically, then makes the rename durable.
     */
    static void publish(Path tmp, Path target) throws IOException {
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the archive's file system cannot rename " + tmp + " atomically", e);
        }
        forceDirectory(target.getParent());
    }

    private static void forceDirectory(Path dir) {
        // makes the rename durable on Linux; other platforms may refuse to open a directory, which is harmless
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // not every OS supports fsync on a directory; the rename itself is still atomic
            LOG.debug("cannot fsync directory {}: {}", dir, e.toString());
        }
    }

    /** Percent-encodes a run id for a directory name (see the class comment). */
    public static String encodeRunId(String runId) {
        if (runId == null || runId.isEmpty()) {
            throw new IllegalArgumentException("run id must not be empty");
        }
        StringBuilder sb = new StringBuilder();
        for (byte b : runId.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' && sb.length() > 0
                    || c == '_' || c == '-' || c == ':' || c == '+') {
                sb.append((char) c);
            } else {
                sb.append('%').append(String.format("%02X", c));
            }
        }
        return sb.toString();
    }

    /** Writes the content of a new file at the given path. */
    @FunctionalInterface
    interface FileBody {
        void writeTo(Path file) throws IOException;
    }
}
