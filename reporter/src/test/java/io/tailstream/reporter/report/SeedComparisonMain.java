package io.tailstream.reporter.report;

import java.nio.file.Path;

/**
 * Writes the seed-000 comparison archive and its reports (HTML en and zh-CN, json, csv, md) into a folder, for
 * looking at them and for screenshots ({@code docs/screenshot-report.sh}). Run from the reporter module:
 * {@code java -cp target/classes:target/test-classes:$(cat cp.txt) io.tailstream.reporter.report.SeedComparisonMain OUT}
 * where cp.txt comes from {@code mvn -pl reporter dependency:build-classpath -Dmdep.outputFile=cp.txt}.
 */
public final class SeedComparisonMain {

    private SeedComparisonMain() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/seed-comparison");
        Path archive = out.resolve("archive");
        SeedComparison.write(archive);
        ReportOptions options = ReportOptions.allRuns().withBaseline(SeedComparison.ESSD.name());
        for (ReportFormat f : ReportFormat.values()) {
            ReportGenerator.generate(archive, options, f, out.resolve("report." + f.extension()));
        }
        ReportGenerator.generate(archive, options.withLocale(ReportOptions.SIMPLIFIED_CHINESE),
                out.resolve("report-zh-CN.html"));
    }
}
