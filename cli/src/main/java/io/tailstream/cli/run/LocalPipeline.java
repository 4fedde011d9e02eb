package io.tailstream.cli.run;

import io.tailstream.aggregator.AggregationIncompleteException;
import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.cli.UserFacingException;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.KafkaEmission;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.plan.LiveView;
import io.tailstream.reporter.archive.ArchiveSummary;
import io.tailstream.reporter.archive.Archiver;
import io.tailstream.reporter.report.ReportGenerator;
import io.tailstream.reporter.report.ReportOptions;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The whole pipeline on this machine: a one-node Kafka cluster, a producer run, the aggregator, then the archiver
 * and the report. What {@code demo} and a {@code run} without {@code --bootstrap-servers} do.
 *
 * <p>After the run it proves the pipeline lost and duplicated nothing: samples acknowledged by Kafka = samples
 * counted in the aggregator's windows = sample rows archived, and every block sequence archived exactly once.
 * A mismatch is a failure, reported with the counts.
 *
 * <p>The broker shares the machine with the database and the load generator, and must take as little of their CPU as
 * it can: it runs in a JVM of its own at the lowest CPU priority, one thread per pool
 * ({@link KafkaCluster#startBesideLoad()}), so its threads, its JIT compiler and its garbage collector take only
 * what the database and the load leave; once the load has ended it goes back to normal priority, where the system
 * allows raising it ({@link KafkaCluster#raiseToNormalPriority()}). The aggregator starts once the load has ended:
 * the samples wait in Kafka meanwhile (nobody reads its output before: a local run's console shows the producer's own
 * figures); it commits every {@link #COMMIT_INTERVAL}. The run's sample blocks linger {@link #SAMPLES_LINGER} in the
 * producer, so the broker gets about one produce request a second. The Kafka client's code runs on what the quick JIT
 * compiler alone compiled ({@link KafkaClientCompilerDirective}). The archiver runs once the aggregator has counted
 * every sample and published the run's summaries.
 *
 * <p>A live run ({@link LiveView#on()}) starts the aggregator before the load instead, in a JVM of its own at the
 * lowest priority as well ({@link LiveAggregator}), with its live page; its samples linger only
 * {@link #LIVE_SAMPLES_LINGER}, so the page and the stall alerts are at most that much later. Should it die during
 * the load, the run aggregates after the load as without it (its committed state restored from Kafka).
 */
final class LocalPipeline implements AutoCloseable {

    /**
     * The aggregator's commit interval: Kafka Streams' default. Under exactly-once the output of each stage becomes
     * visible at a commit, and the run waits for the last windows and summaries; the aggregator works after the load,
     * so committing less often would spare the database nothing and only lengthen the run's end (1 s commits took
     * 2 s longer from the last sample to the summaries).
     */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(100);
    /**
     * How long the aggregator may count nothing, after the load ended, before the run is declared incompletely
     * aggregated; and how long to wait for the summaries once every sample is counted (window + grace is 3 s by
     * default). A backlog takes as long as it takes while the aggregator keeps counting.
     */
    static final Duration AGGREGATION_TIMEOUT = Duration.ofSeconds(60);
    /** How often a line tells how far the aggregator is, while it works through the run's samples. */
    static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);
    /**
     * How long the run's sample blocks linger in the Kafka producer to fill a batch (Kafka's {@code linger.ms}),
     * instead of the 100 ms of a run against a cluster. The producer's and the broker's cost is per produce request:
     * beside an 8-thread oltp_read_write load, lingering 1 s cut the broker's request thread from ~2 % to ~0.6 % of a
     * core and the producer's I/O thread from ~1.4 % to ~0.4 %. Nothing reads the samples before the load has ended,
     * and the end of each step sends what lingers at once.
     */
    static final Duration SAMPLES_LINGER = Duration.ofSeconds(1);
    /**
     * {@link #SAMPLES_LINGER} of a live run: the live aggregator reads the samples as they come, and a stall is
     * alerted once its first empty window has closed (its end plus the 2 s grace) and its samples have arrived.
     */
    static final Duration LIVE_SAMPLES_LINGER = Duration.ofMillis(250);
    /** How long the aggregator may take to join its group and restore its state once the load has ended. */
    static final Duration AGGREGATOR_START_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaCluster kafka;
    private final PrintStream console;

    private LocalPipeline(KafkaCluster kafka, PrintStream console) {
        this.kafka = kafka;
        this.console = console;
    }

    static LocalPipeline start(PrintStream console) {
        console.println("starting the Kafka broker in a JVM of its own ...");
        KafkaClientCompilerDirective.apply();
        KafkaCluster kafka = KafkaCluster.startBesideLoad();
        try {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(Topics.DEFAULT_SAMPLE_PARTITIONS));
            return new LocalPipeline(kafka, console);
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /**
     * The aggregator's defaults, committing every {@link #COMMIT_INTERVAL}, its producer with one request in flight
     * per connection. Under exactly-once the first write of a transaction to a partition may meet the previous
     * transaction still completing (CONCURRENT_TRANSACTIONS, which the client retries); batches already sent behind
     * it are refused as out of sequence and retried as well, and the broker logs each refusal as an error. With one
     * request in flight nothing is sent behind a retried batch; the aggregator's output beside a step is small.
     */
    static AggregatorConfig aggregatorConfig() {
        return AggregatorConfig.defaults().withCommitInterval(COMMIT_INTERVAL).withClientOverrides(Map.of(
                StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), "1"));
    }

    /** The run's Kafka producer settings: sample blocks linger {@link #SAMPLES_LINGER} ({@code live}: less). */
    static Map<String, Object> producerConfig(boolean live) {
        return Map.of(ProducerConfig.LINGER_MS_CONFIG,
                (int) (live ? LIVE_SAMPLES_LINGER : SAMPLES_LINGER).toMillis());
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /**
     * Runs the plan and everything downstream of it; leaves {@code outDir/archive/} and {@code outDir/report.html}
     * whatever the run's outcome: a step that failed, a target that went away or a stop request ends the run, and
     * what was measured until then is aggregated, archived and reported all the same.
     *
     * @param spool blocks are spooled per these settings while Kafka is slow (null: no spool)
     * @param stop  receives the runner, so a signal can end the run cleanly
     * @param view  whether the aggregator runs during the load, with its live page
     */
    Outcome run(RunPlan plan, Path outDir, SpoolSettings spool, GracefulStop stop, LiveView view) {
        LiveAggregator live = null;
        if (view.on()) {
            console.println("starting the live aggregator in a JVM of its own ...");
            live = LiveAggregator.start(kafka.bootstrapServers(), view, outDir);
            console.println("live page: " + live.page() + " (the aggregator's log: " + live.log() + ")");
        }
        try {
            return run(plan, outDir, spool, stop, live);
        } finally {
            if (live != null) {
                live.close();
            }
        }
    }

    private Outcome run(RunPlan plan, Path outDir, SpoolSettings spool, GracefulStop stop, LiveAggregator live) {
        // without --live the aggregator starts after the load: beside it, it would take CPU from the database and the
        // workers (its own work, and the broker's fetches and transactions for it)
        RunResult result = BenchmarkRunner.run(plan, KafkaEmission.to(kafka.bootstrapServers())
                .kafkaConfig(producerConfig(live != null)).spool(spool).build(), console, stop::attach);
        // the load has ended: what is left waits on the broker and the aggregator, which anything else keeping the
        // cores busy would starve at the lowest priority
        kafka.raiseToNormalPriority();
        if (live != null) {
            live.raiseToNormalPriority();
        }

        Map<Integer, Long> sentByStep = new LinkedHashMap<>();
        for (StepResult s : result.steps()) {
            sentByStep.merge(s.stepId(), s.samplesSent(), Long::sum);
        }
        long sent = result.samplesSent();
        long aggregated;
        String aggregationProblem = null;
        String summariesProblem;
        if (live != null && live.alive()) {
            console.printf(Locale.ROOT, "waiting for the live aggregator to count the run's %,d samples ...%n", sent);
        }
        ProgressLines lines = new ProgressLines(console, sent);
        Path stateDir = createStateDir();
        Aggregator here = null;
        try (AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
            try {
                boolean counted = live != null && progress.awaitCountsWhileCounting(plan.runId(), sentByStep,
                        AGGREGATION_TIMEOUT, lines::counted, live::alive);
                if (!counted) {
                    here = takeOver(live, sent, stateDir);
                    progress.awaitCountsWhileCounting(plan.runId(), sentByStep, AGGREGATION_TIMEOUT, lines::counted);
                }
            } catch (AggregationIncompleteException e) {
                // archived and reported all the same: the counts below say what is missing
                aggregationProblem = "the aggregator's windows do not account for every sample sent: "
                        + e.getMessage();
            }
            aggregated = progress.countedSamples(plan.runId());
            // the archiver takes what is committed when it starts: a summary committed after it would be missing
            List<Integer> steps = stepsWithSamples(sentByStep);
            if (here == null && live != null) {
                summariesProblem = progress.awaitSummaries(plan.runId(), steps, AGGREGATION_TIMEOUT, live::alive);
                if (summariesProblem != null && !live.alive()) {
                    here = takeOver(live, sent, stateDir);
                    summariesProblem = progress.awaitSummaries(plan.runId(), steps, AGGREGATION_TIMEOUT);
                }
            } else {
                summariesProblem = progress.awaitSummaries(plan.runId(), steps, AGGREGATION_TIMEOUT);
            }
        } catch (AggregatorNotStartedException e) {
            // what was sent is archived and reported all the same, with the reason nothing was aggregated
            aggregated = 0;
            aggregationProblem = "the aggregator did not start: " + e.getMessage();
            summariesProblem = "the aggregator did not start";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserFacingException("interrupted while waiting for the aggregator", e);
        } finally {
            if (here != null) {
                here.close();
            }
            deleteRecursively(stateDir);
        }

        Path archiveDir = outDir.resolve("archive");
        console.println("archiving to " + archiveDir + " ...");
        ArchiveSummary archive = Archiver.archiveUntilCaughtUp(kafka.bootstrapServers(), archiveDir);

        Path report = outDir.resolve("report.html");
        try {
            ReportGenerator.generate(archiveDir, ReportOptions.runs(List.of(plan.runId())), report);
        } catch (IOException | SQLException e) {
            throw new UserFacingException("cannot write the report " + report + ": " + e.getMessage(), e);
        }
        return new Outcome(result, aggregated, archive, archiveDir, report, aggregationProblem,
                summariesProblem == null ? null : "the aggregator did not publish the run's summaries: "
                        + summariesProblem);
    }

    /** Prints how many of the run's samples are counted, at most every {@link #PROGRESS_INTERVAL}. */
    private static final class ProgressLines {
        private final PrintStream console;
        private final long total;
        private long lastLineAt = System.nanoTime();

        ProgressLines(PrintStream console, long total) {
            this.console = console;
            this.total = total;
        }

        void counted(long counted) {
            long now = System.nanoTime();
            if (counted < total && now - lastLineAt >= PROGRESS_INTERVAL.toNanos()) {
                lastLineAt = now;
                console.printf(Locale.ROOT, "  aggregated %,d of %,d samples (%.0f%%)%n", counted, total,
                        100.0 * counted / total);
            }
        }
    }

    /**
     * Starts the aggregator in this JVM once the load has ended: the run has no live aggregator, or it stopped before
     * it had counted and summarized the run. It goes on from what the live one committed (the same application id:
     * its offsets, and its state from the changelogs), so nothing is counted twice.
     */
    private Aggregator takeOver(LiveAggregator live, long sent, Path stateDir) throws InterruptedException {
        if (live != null) {
            console.println("the live aggregator stopped (see " + live.log() + "); aggregating here from what it"
                    + " committed");
        }
        console.printf(Locale.ROOT, "aggregating the run's %,d samples, which waited in Kafka while the load ran"
                + " ...%n", sent);
        return startAggregator(stateDir);
    }

    /** Steps that sent samples: each has windows, so the aggregator publishes a summary of it. */
    private static List<Integer> stepsWithSamples(Map<Integer, Long> sentByStep) {
        return sentByStep.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey).toList();
    }

    /** Starts the aggregator and waits until it runs; the aggregator is closed again if it does not. */
    private Aggregator startAggregator(Path stateDir) throws InterruptedException {
        Aggregator aggregator;
        try {
            aggregator = Aggregator.start(kafka.bootstrapServers(), aggregatorConfig(), stateDir);
        } catch (RuntimeException e) {
            throw new AggregatorNotStartedException(e.getMessage() != null ? e.getMessage() : e.toString(), e);
        }
        boolean running = false;
        try {
            running = aggregator.awaitRunning(AGGREGATOR_START_TIMEOUT);
        } finally {
            if (!running) {
                aggregator.close();
            }
        }
        if (!running) {
            throw new AggregatorNotStartedException("it did not reach RUNNING within "
                    + AGGREGATOR_START_TIMEOUT.toSeconds() + " s (state " + aggregator.state() + ")", null);
        }
        return aggregator;
    }

    /** The aggregator could not be started, or did not reach RUNNING. */
    private static final class AggregatorNotStartedException extends RuntimeException {
        AggregatorNotStartedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static Path createStateDir() {
        try {
            return Files.createTempDirectory("tailstream-streams-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the aggregator's state directory", e);
        }
    }

    @Override
    public void close() {
        kafka.close();
    }

    static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the aggregator's state directory " + dir, e);
        }
    }

    /**
     * What one local run produced, and the proof that nothing was lost or counted twice.
     *
     * @param aggregationProblem why the aggregator's windows did not account for every sample sent, or null
     * @param summariesProblem   which of the run's summaries the aggregator had not published when the archiver
     *                           started (the report lacks their figures), or null
     */
    record Outcome(RunResult result, long samplesAggregated, ArchiveSummary archive, Path archiveDir, Path report,
                   String aggregationProblem, String summariesProblem) {

        long samplesArchived() {
            return archive.rows("samples");
        }

        /**
         * Null if samples sent = aggregated = archived, every block sequence is archived once and the run's summaries
         * are archived, else why not.
         */
        String problem() {
            long sent = result.samplesSent();
            if (aggregationProblem != null) {
                return aggregationProblem;
            }
            if (sent != samplesAggregated || sent != samplesArchived()) {
                return String.format("sample counts disagree: sent %d, aggregated %d, archived %d", sent,
                        samplesAggregated, samplesArchived());
            }
            if (!archive.blocksConsistent()) {
                return "block sequences are not complete and unique in the archive: " + archive.blockChecks();
            }
            return summariesProblem;
        }

        String proofLine() {
            return String.format(java.util.Locale.ROOT,
                    "samples: %,d sent = %,d aggregated = %,d archived; %,d blocks, every sequence archived once",
                    result.samplesSent(), samplesAggregated, samplesArchived(), result.blocksSent());
        }
    }
}
