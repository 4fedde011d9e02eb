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
 *   server_counters/run_id=RUN/tailstream.control-p0-...parquet
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
 * range after a crash replaces the file rather than adding a second copy. Offsets start again at 0 on a new cluster or
 * a topic created again, so the file's footer records which incarnation of the topic they belong to ({@code
 * TopicIncarnation}); derived files ({@code steps.parquet}, ...) record none. Run ids are written into directory
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
    /** Every {@code server_counters} control event, one row per value. */
    public static final String SERVER_COUNTERS = "server_counters";
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
            SERVER_COUNTERS, STALL_EVENTS, STALLS, SUMMARY_EVENTS, SUMMARIES, RUN_SUMMARY_EVENTS, RUN_SUMMARIES);

    /** The hive partition key of every dataset. Never also a column inside the files (DuckDB lets it win). */
    public static final String RUN_KEY = "run_id";

    static final String TMP_SUFFIX = ".tmp";
    private static final String TAG = "~";
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
        // by name only (see runFiles)
        try (java.nio.file.DirectoryStream<Path> runs = Files.newDirectoryStream(dir)) {
            for (Path run : runs) {
                if (!Files.isDirectory(run)) {
                    continue;
                }
                try (java.nio.file.DirectoryStream<Path> files = Files.newDirectoryStream(run, "*.parquet")) {
                    if (files.iterator().hasNext()) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + dir, e);
        }
    }

    /** The deterministic name of the file holding one topic partition's offsets {@code from..to} (inclusive). */
    public static String sourceFileName(String topic, int partition, long fromOffset, long toOffset) {
        return String.format("%s-p%d-%019d-%019d.parquet", topic, partition, fromOffset, toOffset);
    }

    /**
     * The temporary name of a source file still being written, from the offset of its first record: hidden, tagged
     * with its partition and the writing instance (see {@link #temporaryName}), and deleted as a stale temporary by
     * the next instance the partition is assigned to if this one dies before publishing it.
     */
    static String openFileName(String topic, int partition, long fromOffset, String instance) {
        return temporaryName(topic + "-p" + partition + "-" + String.format("%019d", fromOffset) + ".parquet", topic,
                partition, instance);
    }

    /**
     * The hidden temporary name under which a file is written before it is renamed to {@code finalName}: {@code
     * .FINAL~TOPIC-pN~INSTANCE.tmp}. The partition tag says which topic partition's owner wrote it (Kafka topic
     * names never contain {@code ~}), so the instance a partition is assigned to next can delete what an earlier
     * owner left; the instance tag keeps two archivers writing the same directory from ever sharing a temporary file.
     */
    static String temporaryName(String finalName, String topic, int partition, String instance) {
        return "." + finalName + TAG + topic + "-p" + partition + TAG + instance + TMP_SUFFIX;
    }

    /** A random tag for one archive writer's temporary files. */
    static String newInstanceTag() {
        return java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    /** The {@code TOPIC-pN} tag of a temporary file's name, or null if it has none (written before tags existed). */
    static String temporaryPartitionTag(String fileName) {
        if (!fileName.endsWith(TMP_SUFFIX)) {
            return null;
        }
        String[] parts = fileName.split(TAG, -1);
        return parts.length == 3 ? parts[1] : null;
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

    /**
     * Deletes the temporary files of the given {@code TOPIC-pN} partition tags, and those without a tag (left by
     * an archiver from before tags existed), that earlier owners of the partitions left behind; returns how many.
     * Called when the partitions are assigned: whoever wrote these files no longer owns the partitions, so a file
     * is either stale or belongs to an instance the group has already replaced, whose rename then fails.
     */
    static int deleteStaleTemporaries(Path archive, java.util.Set<String> partitionTags) throws IOException {
        int deleted = 0;
        for (Path file : runFiles(archive)) {
            String name = file.getFileName().toString();
            if (!name.endsWith(TMP_SUFFIX)) {
                continue;
            }
            String tag = temporaryPartitionTag(name);
            if ((tag == null || partitionTags.contains(tag)) && Files.deleteIfExists(file)) {
                deleted++;
            }
        }
        return deleted;
    }

    /**
     * Every file in the archive's run directories ({@code archive/DATASET/run_id=RUN/FILE}), listed by name only:
     * other archivers may rename and delete files in the same directories meanwhile, which a listing that also
     * reads each file's attributes would trip over.
     */
    static List<Path> runFiles(Path archive) {
        List<Path> out = new ArrayList<>();
        for (String dataset : DATASETS) {
            Path dir = archive.resolve(dataset);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (java.nio.file.DirectoryStream<Path> runs = Files.newDirectoryStream(dir)) {
                for (Path run : runs) {
                    if (!run.getFileName().toString().startsWith(RUN_KEY + "=")) {
                        continue;
                    }
                    try (java.nio.file.DirectoryStream<Path> files = Files.newDirectoryStream(run)) {
                        files.forEach(out::add);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + dir, e);
            }
        }
        return out;
    }

    /**
     * Writes a file under a temporary name ({@code tmpName}, see {@link #temporaryName}), forces it to disk, then
     * renames it over {@code target} atomically.
     */
    static void writeAtomically(Path target, String tmpName, FileBody body) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(tmpName);
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
