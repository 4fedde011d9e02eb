package io.tailstream.cli.command;

import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.ThreadCountsConverter;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.schemas.Topics;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
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
                "Without --bootstrap-servers the whole pipeline runs on this machine (in-process broker,",
                "aggregator, archiver) and leaves DIR/archive/ and DIR/report.html; with it, the command only",
                "produces, for a cluster where the aggregator and archiver run elsewhere."})
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

    @Option(names = "--json", description = "Print the step results as one JSON document on stdout.")
    boolean json;

    @Option(names = "--no-emit",
            description = "Run the workloads without sending samples anywhere (no broker, aggregator or archive):"
                    + " the load generator's own cost, for comparisons with other tools (docs/sysbench-compare.sh).")
    boolean noEmit;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Override
    public Integer call() {
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(), "--rounds must be at least 1, was " + rounds);
        }
        if (reportInterval < 0) {
            throw new ParameterException(spec.commandLine(), "--report-interval must not be negative");
        }
        var t = CommandInputs.target(target, spec.commandLine());
        boolean embedded = target.url == null;
        String id = runId != null ? runId : RunIds.next("run");
        RunPlan plan;
        try {
            plan = new RunPlan(id, "adhoc", List.of(t), CommandInputs.workloads(workload), threads, rounds, warmup,
                    duration, reportInterval, prepare || embedded, null, null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintStream console = json ? System.err : System.out;
        if (noEmit) {
            if (kafka.bootstrapServers != null || out != null) {
                throw new ParameterException(spec.commandLine(), "--no-emit sends nothing: it cannot be combined with"
                        + " --bootstrap-servers or --out");
            }
            RunResult result;
            try (SampleSink sink = SampleSink.noop("no-emit")) {
                result = new BenchmarkRunner(sink, console).run(plan);
            }
            return printResult(result, "run " + result.runId() + ": samples not emitted (--no-emit)", console);
        }
        if (kafka.bootstrapServers == null) {
            Path outDir = OutDirs.resolve(out, "tailstream-run-", console);
            return LocalRuns.runLocally(plan, outDir, console, json);
        }
        if (out != null) {
            throw new ParameterException(spec.commandLine(),
                    "--out applies to the local pipeline only; with --bootstrap-servers run 'archive' and 'report'"
                            + " where the archive lives");
        }
        TopicProvisioner.ensure(kafka.bootstrapServers, Topics.all(LocalPipeline.PARTITIONS));
        RunResult result = BenchmarkRunner.run(plan, kafka.bootstrapServers, console);
        return printResult(result, String.format("run %s: %,d samples in %,d blocks sent to %s", result.runId(),
                result.samplesSent(), result.blocksSent(), kafka.bootstrapServers), console);
    }

    private int printResult(RunResult result, String last, PrintStream console) {
        for (StepResult s : result.steps()) {
            console.println("  " + s.summary());
        }
        console.println(last);
        if (json) {
            System.out.println(StepsJson.write(result.steps()));
        }
        return 0;
    }
}
