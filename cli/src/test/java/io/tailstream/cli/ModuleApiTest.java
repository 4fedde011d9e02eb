package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's public surface, held as {@code module-info.java} exports would hold it, at class level: each stage
 * module offers the others and the CLI the types listed in {@link #API}, and nothing else of it is used outside the
 * module; a public type outside the API is public only because another package of its own module uses it. The
 * dependencies are read from the compiled classes with the JDK's {@code jdeps} (lambdas and types reached through
 * signatures included), main code only; benchmarks and tests may use internals.
 *
 * <p>A change that makes a stage use another stage's internal type fails here: either the type joins that stage's
 * API (a decision, made in this list) or the change goes through the API. A public type that no other package uses
 * fails too: make it package-private. The few public types outside both rules are listed with their reason.
 */
class ModuleApiTest {

    private static final String ROOT = "io.tailstream.";

    /** Per stage module, the types (relative to {@code io.tailstream.<module>.}) other modules may use. */
    static final Map<String, Set<String>> API = Map.of(
            // the contract: events, blocks, topics, the histograms every stage reads
            "schemas", Set.of("TopicSpec", "Topics",
                    "block.BlockHeader", "block.CorruptBlockException", "block.SampleBlock",
                    "block.SampleBlockDecoder", "block.SampleBlockEncoder", "block.SampleStatus", "block.SampleVisitor",
                    "event.ClientHealth", "event.ControlEvent", "event.DataChecked", "event.Json", "event.JsonSerde",
                    "event.ProducerReady",
                    "event.RttProbe", "event.RunEnded", "event.RunSettings", "event.RunStarted", "event.RunSummary",
                    "event.Secrets", "event.ServerCounters", "event.StallEvent", "event.StepEnded", "event.StepGo",
                    "event.StepStarted", "event.StepSummary",
                    "event.TargetInfo", "event.WindowPart", "event.WindowStats",
                    "histogram.LatencyFigures", "histogram.LatencyHistograms"),
            // the rules results are judged by, one place each
            "analysis", Set.of("PercentChange", "Plateau", "RoundStats", "ScaleOut", "SoakTrend", "SweepPeak",
                    "change.ChangePoint", "change.ChangePointDetector", "change.ChangePointSettings",
                    "change.SegmentComparison",
                    "counters.CounterMove", "counters.CounterReadings", "counters.CounterSeries",
                    "counters.ServerLines", "counters.StallExplanation",
                    "interval.BlockBootstrap", "interval.Fieller", "interval.PercentInterval"),
            "infra", Set.of("kafka.EmbeddedKafka", "kafka.KafkaCluster", "kafka.TopicProvisioner",
                    "process.ChildJvm", "process.LowestPriority"),
            // a run: its plan, the runner, how its samples reach Kafka, what it returns; the workloads' tables
            "producer", Set.of("BenchmarkRunner", "KafkaEmission", "RunPlan", "RunResult", "WorkloadData",
                    "driver.StepResult",
                    "emit.SampleSink", "emit.SpoolSettings", "emit.SpoolingTransport",
                    "group.ProducerGroup",
                    "plan.Durations", "plan.LiveView", "plan.PlanException", "plan.PlanFile", "plan.ThreadSweep",
                    "target.Target", "target.TargetException",
                    "time.Clock",
                    "workload.LoadProgress", "workload.Workload", "workload.WorkloadSpec", "workload.Workloads"),
            // an aggregator, its configuration and status, its HTTP endpoints
            "aggregator", Set.of("AggregationIncompleteException", "AggregationProgress", "Aggregator",
                    "AggregatorConfig", "AggregatorStatus", "alert.AlertWebhook",
                    "http.LiveReplay", "http.LiveWindows", "http.MetricsServer", "http.MonitorServer",
                    "http.OpenWindows", "stall.StallConfig", "topology.TopologyListener"),
            // the archiver, the archive's queries, the report
            "reporter", Set.of("archive.ArchiveProgress", "archive.ArchiveSummary", "archive.Archiver",
                    "archive.ArchiverConfig", "archive.ArchiverStatus",
                    "export.HistogramLogExport", "output.TableFormat",
                    "history.Fingerprint", "history.Metric", "history.Series", "history.SeriesChange",
                    "history.SeriesKey", "history.SeriesPoint", "history.TrendFilter", "history.TrendPage",
                    "history.TrendQuery",
                    "query.ArchiveDatabase", "query.RunCatalog", "query.RunComparison", "query.RunFilter",
                    "query.RunListing", "query.StepFigure", "query.StepIntervals",
                    "report.ReportFormat", "report.ReportGenerator", "report.ReportModel", "report.ReportOptions"));

    /** Public although no other package names them: the reason each must be. */
    static final Map<String, String> PUBLIC_BY_NAME = Stream.concat(
            Stream.of(Map.entry("infra.kafka.KafkaNode", "the main class of a broker process, started by name")),
            // Freemarker calls only public methods of public classes; the report template reads the model's parts
            Stream.of("Check", "Cost", "Environment", "FairnessProfile", "RunInfo", "ScaleOutRow", "ServerChart",
                            "Soak", "Stall", "StallDetection", "StepInfo", "StepSeries", "SummaryRow", "Text",
                            "TpccRow", "Verdict", "WorkloadSummary")
                    .map(type -> Map.entry("reporter.report." + type,
                            "read by the report template (Freemarker needs public classes)")))
            .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));

    /** Public for tests and benchmarks in other packages only, which main code of other packages does not use. */
    static final Map<String, String> PUBLIC_FOR_TESTS = Map.of(
            "schemas.block.Sample", "a sample as tests and benchmarks of every stage write blocks of them",
            "infra.kafka.BacklogProducer", "how tests and benchmarks put a backlog on a broker",
            "reporter.archive.ArchiveVerifier", "the block check pipeline tests run over an archive",
            "reporter.archive.BlockCheck", "what ArchiveVerifier returns",
            "reporter.archive.ArchiveWriter", "writes test archives for the query and report tests",
            "aggregator.topology.DeadLetters", "the dead-letter reasons the aggregator's tests check",
            "aggregator.window.LatencyBuckets", "the bucket layout the topology tests compute figures with",
            "producer.emit.BlockTransport", "the transport the emission benchmarks replace");

    /** One class of each module, to find where the module's classes are. */
    private static final Map<String, String> ANCHORS = Map.of(
            "schemas", "io.tailstream.schemas.Topics",
            "analysis", "io.tailstream.analysis.Plateau",
            "infra", "io.tailstream.infra.kafka.EmbeddedKafka",
            "producer", "io.tailstream.producer.BenchmarkRunner",
            "aggregator", "io.tailstream.aggregator.Aggregator",
            "reporter", "io.tailstream.reporter.archive.Archiver",
            "cli", "io.tailstream.cli.Cli");

    /** Class-level dependencies among tailstream's main classes: top-level class name to the top-level classes. */
    static Map<String, Set<String>> uses;
    static Map<String, List<String>> classesByModule;

    @BeforeAll
    static void readDependencies() throws Exception {
        Map<String, Path> locations = new TreeMap<>();
        for (var anchor : ANCHORS.entrySet()) {
            locations.put(anchor.getKey(), location(anchor.getValue()));
        }
        classesByModule = new TreeMap<>();
        for (var l : locations.entrySet()) {
            classesByModule.put(l.getKey(), topLevelClasses(l.getValue()));
        }
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-e", "io\\.tailstream\\..*"));
        locations.values().forEach(p -> args.add(p.toString()));
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(
                () -> new IllegalStateException("this JDK has no jdeps tool"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = jdeps.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args.toArray(String[]::new));
        assertThat(rc).as("jdeps %s: %s", args, err.toString(StandardCharsets.UTF_8)).isZero();
        uses = new TreeMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[1].equals("->") && f[0].startsWith(ROOT) && f[2].startsWith(ROOT)) {
                uses.computeIfAbsent(top(f[0]), k -> new TreeSet<>()).add(top(f[2]));
            }
        }
        assertThat(uses).as("dependencies read by jdeps").isNotEmpty();
    }

    @Test
    void stagesAndCli_useEachOthersApiOnly() {
        Map<String, Set<String>> outside = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        uses.forEach((from, targets) -> targets.stream().filter(to -> !module(to).equals(module(from)))
                .forEach(to -> {
                    outside.computeIfAbsent(module(to), k -> new TreeSet<>()).add(relative(to));
                    if (!API.getOrDefault(module(to), Set.of()).contains(relative(to))) {
                        violations.add(from + " uses " + to + ", which is not in the " + module(to) + " API");
                    }
                }));
        assertThat(violations).as("uses of another module's internal types").isEmpty();
        API.forEach((module, api) -> assertThat(outside.getOrDefault(module, Set.of()))
                .as("the %s API lists only what other modules use", module).containsExactlyInAnyOrderElementsOf(api));
    }

    @Test
    void everyPublicType_isApiOrUsedFromAnotherPackageOfItsModule() throws Exception {
        List<String> needlesslyPublic = new ArrayList<>();
        for (String module : API.keySet()) {
            for (String name : classesByModule.get(module)) {
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                if (!Modifier.isPublic(type.getModifiers()) || API.get(module).contains(relative(name))
                        || PUBLIC_BY_NAME.containsKey(module + "." + relative(name))
                        || PUBLIC_FOR_TESTS.containsKey(module + "." + relative(name))) {
                    continue;
                }
                boolean usedAcrossPackages = uses.entrySet().stream().anyMatch(e -> module(e.getKey()).equals(module)
                        && !packageOf(e.getKey()).equals(packageOf(name)) && e.getValue().contains(name));
                if (!usedAcrossPackages) {
                    needlesslyPublic.add(name);
                }
            }
        }
        assertThat(needlesslyPublic).as("public types no other package uses: make them package-private").isEmpty();
    }

    @Test
    void theExceptions_stillNeedToBePublic() throws Exception {
        for (String name : concat(PUBLIC_BY_NAME.keySet(), PUBLIC_FOR_TESTS.keySet())) {
            String fqcn = ROOT + name;
            assertThat(Modifier.isPublic(Class.forName(fqcn, false, getClass().getClassLoader()).getModifiers()))
                    .as(fqcn).isTrue();
            assertThat(uses.entrySet().stream().anyMatch(e -> !packageOf(e.getKey()).equals(packageOf(fqcn))
                    && e.getValue().contains(fqcn))).as("%s is used from another package: no exception needed", fqcn)
                    .isFalse();
        }
    }

    private static List<String> concat(Collection<String> a, Collection<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    private static Path location(String className) throws ClassNotFoundException, URISyntaxException {
        return Path.of(Class.forName(className, false, ModuleApiTest.class.getClassLoader()).getProtectionDomain()
                .getCodeSource().getLocation().toURI());
    }

    /** Top-level classes in a directory of classes or a jar, by binary name. */
    private static List<String> topLevelClasses(Path location) {
        Collection<String> entries;
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location)) {
                    entries = files.filter(Files::isRegularFile).map(f -> location.relativize(f).toString()
                            .replace('\\', '/')).toList();
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    entries = jar.stream().map(e -> e.getName()).toList();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries.stream().filter(n -> n.endsWith(".class") && !n.contains("$")
                        && !n.endsWith("package-info.class") && !n.startsWith("META-INF/"))
                .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                .sorted().collect(Collectors.toList());
    }

    private static String top(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    private static String module(String className) {
        return className.substring(ROOT.length(), className.indexOf('.', ROOT.length()));
    }

    private static String relative(String className) {
        return className.substring(ROOT.length() + module(className).length() + 1);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }
}
