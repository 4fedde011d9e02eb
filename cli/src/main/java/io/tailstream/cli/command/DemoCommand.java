package io.tailstream.cli.command;

import io.tailstream.cli.run.LocalRuns;
import io.tailstream.cli.options.DurationConverter;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.plan.LiveView;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The whole pipeline on this machine with nothing to install: two embedded H2 targets configured differently
 * (in-memory, and file-backed with every commit written through), both sysbench workloads, two thread counts.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run the whole pipeline locally on embedded H2: a Kafka broker in a JVM of its own, producer,"
                + " aggregator, archiver and report. Leaves DIR/archive/ (Parquet) and DIR/report.html."})
public final class DemoCommand implements Callable<Integer> {

    static final List<Integer> THREADS = List.of(2, 8);

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output folder (default: a new folder tailstream-demo-<time> in the current directory).")
    Path out;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "8s",
            description = "Measurement per step (default: ${DEFAULT-VALUE}); warm-up is a third of it, at most 3 s."
                    + " 8 steps run.")
    Duration duration;

    @Override
    public Integer call() {
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new ParameterException(spec.commandLine(), "--duration must be at least 1s, was " + duration);
        }
        Duration warmup = duration.dividedBy(3).compareTo(Duration.ofSeconds(3)) > 0
                ? Duration.ofSeconds(3) : duration.dividedBy(3);
        String runId = RunIds.next("demo");
        Path outDir = OutDirs.resolve(out, "tailstream-demo-", System.out);
        List<Target> targets = List.of(
                Target.h2InMemory("h2-mem", "tailstream_demo_" + runId.replace('-', '_')),
                Target.h2File("h2-file-sync", outDir.resolve("h2"), "demo"));
        List<WorkloadSpec> workloads = List.of(WorkloadSpec.of("oltp_point_select"),
                WorkloadSpec.of("oltp_read_write"));
        int interval = (int) Math.max(1, Math.min(10, duration.toSeconds() / 2));
        RunPlan plan = RunPlan.of(runId, "demo", targets, workloads, THREADS, 1, warmup, duration, interval);
        return LocalRuns.runLocally(plan, outDir, System.out, false, null, LiveView.OFF);
    }
}
