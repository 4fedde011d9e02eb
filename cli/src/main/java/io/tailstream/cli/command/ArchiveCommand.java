package io.tailstream.cli.command;

import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.Archiver;
import io.tailstream.reporter.archive.ArchiverConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Writes the topics to the Parquet archive. */
@Command(name = "archive", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Archive samples, windows and control events to Parquet (hive-partitioned by run).",
                "Runs until interrupted, rolling files every --roll-interval; --until-caught-up stops at the end"
                        + " offsets seen at start."})
public final class ArchiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--archive", paramLabel = "DIR", required = true, description = "Archive folder.")
    Path archive;

    @Option(names = "--until-caught-up", description = "Stop once everything present at start is archived.")
    boolean untilCaughtUp;

    @Option(names = "--roll-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "60s", description = "Close and publish files at least this often (default:"
            + " ${DEFAULT-VALUE}).")
    Duration rollInterval;

    @Option(names = "--group-id", paramLabel = "ID", defaultValue = ArchiverConfig.DEFAULT_GROUP_ID,
            description = "Consumer group; offsets are committed only after files are in place (default:"
                    + " ${DEFAULT-VALUE}).")
    String groupId;

    @Override
    public Integer call() {
        if (kafka.bootstrapServers == null) {
            throw new ParameterException(spec.commandLine(), "--bootstrap-servers is required");
        }
        ArchiverConfig config;
        try {
            config = ArchiverConfig.of(kafka.bootstrapServers, archive).withRollInterval(rollInterval)
                    .withGroupId(groupId);
            config = new ArchiverConfig(config.bootstrapServers(), config.archiveDir(), config.groupId(),
                    config.rollInterval(), config.rollRows(), kafka.clientConfig());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        ArchiveSummary summary;
        try (Archiver archiver = new Archiver(config)) {
            if (untilCaughtUp) {
                summary = archiver.runUntilCaughtUp();
            } else {
                Runtime.getRuntime().addShutdownHook(new Thread(archiver::close, "tailstream-archive-shutdown"));
                System.out.println("archiving " + kafka.bootstrapServers + " to " + archive + "; Ctrl-C to stop");
                summary = archiver.runUntilClosed();
            }
        }
        System.out.printf("archived %,d samples in %,d blocks to %s (%d files; rows %s)%n", summary.samplesSeen(),
                summary.blocksSeen(), archive, summary.filesWritten(), summary.rowsByDataset());
        if (summary.corruptRecords() > 0) {
            System.out.printf("%,d corrupt records were not archived%n", summary.corruptRecords());
        }
        return 0;
    }
}
