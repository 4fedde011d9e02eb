package io.tailstream.reporter.report;

import java.nio.file.Path;

/**
 * Writes the PolarDB selection evaluation's archive and its reports (HTML en and zh-CN, json, csv, md) into a
 * folder, for looking at them and for screenshots ({@code scripts/screenshot-report.sh}). After
 * {@code ./mvnw -q -o -pl benchmarks -am package -DskipTests}:
 * {@code java -cp benchmarks/target/benchmarks.jar io.tailstream.reporter.report.PolarDbEvaluationMain OUT}.
 */
public final class PolarDbEvaluationMain {

    private PolarDbEvaluationMain() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/polardb-evaluation");
        Path archive = out.resolve("archive");
        PolarDbEvaluation.write(archive);
        ReportOptions options = ReportOptions.allRuns().withBaseline(PolarDbEvaluation.ESSD.name());
        for (ReportFormat f : ReportFormat.values()) {
            ReportGenerator.generate(archive, options, f, out.resolve("report." + f.extension()));
        }
        ReportGenerator.generate(archive, options.withLocale(ReportOptions.SIMPLIFIED_CHINESE),
                out.resolve("report-zh-CN.html"));
    }
}
