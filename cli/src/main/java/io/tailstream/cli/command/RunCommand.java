package io.tailstream.cli.command;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.http.MetricsServer;
import io.tailstream.analysis.Plateau;
import io.tailstream.cli.Cli;
import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.metrics.ProducerMetrics;
import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.HttpOptions;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.cli.options.LiveOptions;
import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.ThreadCountsConverter;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.cli.run.GracefulStop;
import io.tailstream.cli.run.LocalRuns;
import io.tailstream.cli.run.StepsJson;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.KafkaEmission;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.plan.LiveView;
import io.tailstream.producer.plan.PlanException;
import io.tailstream.producer.plan.PlanFile;
import io.tailstream.producer.target.TargetException;
import io.tailstream.schemas.Topics;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Runs workloads against a target and sends every transaction's sample to Kafka. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run workloads against a target, one step per workload x thread count x round.",
                "Without --bootstrap-servers the whole pipeline runs on this machine (a Kafka broker in a"
                        + " JVM of its own, aggregator, archiver) and leaves DIR/archive/ and DIR/report.html; with it,"
                        + " the command only produces, for a cluster where the aggregator and archiver run"
                        + " elsewhere."})
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = false, heading = "Target%n")
    TargetOptions target = new TargetOptions();

    @ArgGroup(exclusive = false, heading = "Workload%n")
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--threads", paramLabel = "LIST", converter = ThreadCountsConverter.class, defaultValue = "8",
            description = "Thread counts to sweep: 8, 1,8,16,32 or exp:1..512 (default: ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "10s",
            description = "Warm-up per step; its samples are flagged, not dropped (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "60s",
            description = "Measurement per step (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "Repetitions of each step (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--report-interval", paramLabel = "SECONDS", defaultValue = "10",
            description = "Console interval lines every this many seconds, 0 for none (default: ${DEFAULT-VALUE}).")
    int reportInterval;

    @Option(names = "--prepare", negatable = true, defaultValue = "false",
            description = "Create and load the tables before the first step (default: ${DEFAULT-VALUE}; on by"
                    + " default for the embedded H2 target, which starts empty).")
    boolean prepare;

    @Option(names = "--run-id", paramLabel = "ID", description = "Run id (default: run-<time>-<random>).")
    String runId;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where the local pipeline leaves archive/ and report.html (default: a new folder"
                    + " tailstream-run-<time>).")
    Path out;

    @Option(names = "--transactions", paramLabel = "N",
            description = "End each step's measurement after N transactions (all threads, failed ones included);"
                    + " without --duration the step has no time limit (24 h cap).")
    Long transactions;

    @Option(names = "--rate", paramLabel = "TPS",
            description = "Open loop: N intended transactions per second in total, split over the threads; latency"
                    + " is also reported from each transaction's intended start (coordinated omission corrected).")
    Double rate;

    @Option(names = "--plateau", paramLabel = "PCT",
            description = "Stop raising the thread count when the mean QPS of a level gains less than PCT percent"
                    + " over the best lower level.")
    Double plateauPct;

    @Option(names = "--plateau-patience", paramLabel = "N", defaultValue = "1",
            description = "Flat levels in a row that end the sweep (default: ${DEFAULT-VALUE}).")
    int plateauPatience;

    @Option(names = "--client-cpu-limit", paramLabel = "PCT", defaultValue = "50",
            description = "Flag a step client-bound when this process's CPU exceeds PCT %% of the machine"
                    + " (default: ${DEFAULT-VALUE}).")
    double clientCpuLimit;

    @Option(names = "--reconnect-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With connection_lost ignored: how long a step may go on with no worker connected (a"
                    + " restart, a failover) before it fails as unreachable (default: 10s).")
    Duration reconnectTimeout;

    @Option(names = "--producers", paramLabel = "N",
            description = "Load generators that share this run: start the same command, with the same --run-id and"
                    + " --bootstrap-servers, on N machines; each step starts when all N are ready (default: 1, this"
                    + " producer alone).")
    Integer producers;

    @Option(names = "--producer-threads", paramLabel = "MODE", defaultValue = "split",
            description = "With --producers: 'split' shares each step's threads out over the producers (the step"
                    + " runs the planned count in all), 'each' has every producer run them all (default:"
                    + " ${DEFAULT-VALUE}).")
    String producerThreads;

    @Option(names = "--join-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With --producers: how long a producer ready for a step waits for the others before the"
                    + " step starts without them (default: 5m).")
    Duration joinTimeout;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "Run the evaluation described by a YAML plan file (targets, workloads, sweep, ...); see"
                    + " docs/plans.md. Combine only with --out, --run-id, --json, --quiet and --bootstrap-servers.")
    Path planFile;

    @Option(names = "--json", description = "Print the step results as one JSON document on stdout.")
    boolean json;

    @Option(names = "--no-emit",
            description = "Run the workloads without sending samples anywhere (no broker, aggregator or archive):"
                    + " the load generator's own cost, for comparisons with other tools (scripts/sysbench-compare.sh).")
    boolean noEmit;

    @Option(names = "--server-counters", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Read each target's own counters (SHOW GLOBAL STATUS, pg_stat_*) once a second during its"
                    + " steps, on a connection of their own (default: on; --no-server-counters, or serverCounters:"
                    + " false in a plan, turns it off).")
    boolean serverCounters;

    @Option(names = "--quiet", description = "No interval lines while steps run (summaries and warnings stay).")
    boolean quiet;

    @Option(names = "--spool-dir", paramLabel = "DIR",
            description = "Where blocks are spooled while Kafka is slow or unreachable (default: the --out folder of"
                    + " a local run, else the current directory).")
    Path spoolDir;

    @Option(names = "--spool-limit", paramLabel = "SIZE", defaultValue = "1g",
            description = "Most bytes the spool may hold; reaching it stops the run (default: ${DEFAULT-VALUE};"
                    + " k, m, g suffixes).")
    String spoolLimit;

    /** Options a plan file sets itself. */
    static final List<String> PLAN_KEYS = List.of("--url", "--user", "--password-env", "--target-name", "--workload",
            "--tables", "--table-size", "--warehouses", "--option", "--read-only-url", "--threads", "--warmup",
            "--duration", "--rounds", "--report-interval", "--prepare", "--transactions", "--rate", "--plateau",
            "--plateau-patience", "--client-cpu-limit", "--reconnect-timeout", "--producers", "--producer-threads",
            "--join-timeout");

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    HttpOptions http = new HttpOptions();

    @Mixin
    LiveOptions watch = new LiveOptions();

    /** The running sink, for {@code /metrics}; a field, as Micrometer holds its meters' state weakly. */
    private final AtomicReference<SampleSink> runningSink = new AtomicReference<>();

    @Override
    public Integer call() {
        String id = runId != null ? runId : RunIds.next("run");
        RunPlan plan = planFile != null ? fromPlanFile(id) : fromOptions(id);
        if (quiet) {
            plan = plan.withIntervalSeconds(0);
        }
        if (!serverCounters) {
            plan = plan.withServerCounters(false);
        }
        PrintStream console = json ? System.err : System.out;
        if (noEmit && (kafka.bootstrapServers != null || out != null)) {
            throw new ParameterException(spec.commandLine(), "--no-emit sends nothing: it cannot be combined with"
                    + " --bootstrap-servers or --out");
        }
        if (!noEmit && kafka.bootstrapServers != null && out != null) {
            throw new ParameterException(spec.commandLine(),
                    "--out applies to the local pipeline only; with --bootstrap-servers run 'archive' and 'report'"
                            + " where the archive lives");
        }
        if (plan.producers().shared()) {
            if (noEmit || kafka.bootstrapServers == null) {
                throw new ParameterException(spec.commandLine(), "a run shared by " + plan.producers().count()
                        + " producers needs --bootstrap-servers: its producers meet on one Kafka cluster");
            }
            if (runId == null) {
                throw new ParameterException(spec.commandLine(), "a run shared by " + plan.producers().count()
                        + " producers needs --run-id: give every producer the same one");
            }
        }
        if (http.given(spec.commandLine()) && (noEmit || kafka.bootstrapServers == null)) {
            throw new ParameterException(spec.commandLine(), "--http/--http-port serve a producer's /metrics: they"
                    + " need --bootstrap-servers (a local run shows its figures on the console)");
        }
        InetSocketAddress metricsAddress = http.address(spec.commandLine());
        LiveView view = watch.view(spec.commandLine(), planFile, !noEmit && kafka.bootstrapServers == null, noEmit);
        long limit = parseSize(spoolLimit);
        Map<String, Object> kafkaConfig;
        try {
            kafkaConfig = kafka.clientConfigObjects();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        // before anything starts or is created: a wrong password or a closed port is reported in a second
        try {
            BenchmarkRunner.checkTargets(plan);
        } catch (TargetException e) {
            throw new UserFacingException("cannot start run " + plan.runId() + ": " + e.getMessage(), e);
        }
        if (noEmit) {
            RunResult result;
            try (GracefulStop stop = GracefulStop.install(console);
                 SampleSink sink = SampleSink.noop("no-emit")) {
                BenchmarkRunner runner = new BenchmarkRunner(sink, console);
                stop.attach(runner);
                result = runner.run(plan);
            }
            return printResult(result, "run " + result.runId() + ": samples not emitted (--no-emit)", console);
        }
        if (kafka.bootstrapServers == null) {
            Path outDir = OutDirs.resolve(out, "tailstream-run-", console);
            return LocalRuns.runLocally(plan, outDir, console, json, spool(spoolDir != null ? spoolDir : outDir,
                    limit), view);
        }
        // served before Kafka is asked anything: a spool that fills while Kafka is away is seen here, not on Kafka
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RunResult result;
        try (MetricsServer metrics = metricsAddress == null ? null
                : HttpOptions.serve(metricsAddress, registry)) {
            if (metrics != null) {
                ProducerMetrics.bind(registry, runningSink);
                console.println("producer metrics on " + metrics.url());
            }
            if (!TopicProvisioner.ensureOrDefer(kafka.bootstrapServers,
                    Topics.all(Topics.DEFAULT_SAMPLE_PARTITIONS), kafkaConfig, Duration.ofSeconds(5))) {
                console.println("Kafka at " + kafka.bootstrapServers + " does not answer: the run starts anyway and"
                        + " spools until it does");
            }
            try (GracefulStop stop = GracefulStop.install(console)) {
                KafkaEmission emission = KafkaEmission.to(kafka.bootstrapServers).kafkaConfig(kafkaConfig)
                        .spool(spool(spoolDir != null ? spoolDir : Path.of("."), limit)).build();
                result = BenchmarkRunner.run(plan, emission, console, runner -> {
                    runningSink.set(runner.sink());
                    stop.attach(runner);
                });
            }
        }
        return printResult(result, String.format("run %s: %,d samples in %,d blocks sent to %s", result.runId(),
                result.samplesSent(), result.blocksSent(), kafka.bootstrapServers), console);
    }

    /** Prints the steps; the exit code (or the failure) says how the run ended. */
    private int printResult(RunResult result, String last, PrintStream console) {
        for (StepResult s : result.steps()) {
            console.println("  " + s.summary());
        }
        console.println(last);
        if (json) {
            System.out.println(StepsJson.write(result.steps()));
        }
        if (result.completed()) {
            return 0;
        }
        if (result.outcome().startsWith("interrupted")) {
            console.println("run " + result.runId() + " " + result.outcome());
            return Cli.EXIT_INTERRUPTED;
        }
        throw new UserFacingException("run " + result.runId() + " " + result.outcome());
    }

    private RunPlan fromPlanFile(String id) {
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        for (String key : PLAN_KEYS) {
            if (pr.hasMatchedOption(key)) {
                throw new ParameterException(spec.commandLine(), key + " cannot be combined with --plan: set it in "
                        + planFile);
            }
        }
        try {
            return PlanFile.load(planFile, id);
        } catch (PlanException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private RunPlan fromOptions(String id) {
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds must be at least 1, was " + rounds);
        }
        if (reportInterval < 0) {
            throw new ParameterException(spec.commandLine(), "--report-interval must not be negative");
        }
        var t = CommandInputs.target(target, spec.commandLine());
        boolean embedded = target.url == null;
        // by transaction count alone, the step has no time limit other than a day
        Duration measure = transactions != null && !spec.commandLine().getParseResult().hasMatchedOption(
                "--duration") ? TRANSACTIONS_TIME_CAP : duration;
        try {
            Plateau plateau = plateauPct == null ? null : new Plateau(plateauPct, plateauPatience);
            return new RunPlan(id, "adhoc", List.of(t), CommandInputs.workloads(workload, spec.commandLine()),
                    threads, rounds, warmup, measure, reportInterval, prepare || embedded, null, null, transactions,
                    rate, plateau, clientCpuLimit).withReconnectTimeout(reconnectTimeout).withProducers(group());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** The producer group of {@code --producers}, {@code --producer-threads} and {@code --join-timeout}. */
    private ProducerGroup group() {
        boolean split = switch (producerThreads) {
            case "split" -> true;
            case "each" -> false;
            default -> throw new ParameterException(spec.commandLine(), "--producer-threads must be 'split' or 'each',"
                    + " was '" + producerThreads + "'");
        };
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        if (producers == null && (pr.hasMatchedOption("--producer-threads") || joinTimeout != null)) {
            throw new ParameterException(spec.commandLine(), "--producer-threads and --join-timeout apply to a run"
                    + " shared by several producers: give --producers");
        }
        return producers == null ? null : new ProducerGroup(producers, split, joinTimeout);
    }

    private SpoolSettings spool(Path dir, long limit) {
        try {
            return SpoolSettings.in(dir).withLimitBytes(limit);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--spool-limit: " + e.getMessage(), e);
        }
    }

    /** {@code 1g}, {@code 512m}, {@code 4096k}, {@code 100000}: bytes. */
    long parseSize(String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,12})([kmg]?)")
                .matcher(value.trim().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches()) {
            throw new ParameterException(spec.commandLine(), "--spool-limit '" + value
                    + "' is not a size (examples: 1g, 512m, 100000)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            default -> n;
        };
    }

    /** The time limit of a step measured by transaction count when no --duration is given. */
    static final Duration TRANSACTIONS_TIME_CAP = Duration.ofHours(24);
}
