package io.tailstream.reporter.report;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The 12-hour soak benchmark outside JUnit: writes the archive of {@link ReportScaleTest} once into a folder
 * (unless it exists), then renders the report five times and prints each time and the HTML size. After
 * {@code ./mvnw -q -o -pl benchmarks -am package -DskipTests}:
 * {@code java -cp benchmarks/target/benchmarks.jar io.tailstream.reporter.report.SoakArchiveMain /tmp/soak}.
 */
public final class SoakArchiveMain {

    private SoakArchiveMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/soak-12h");
        Path archive = dir.resolve("archive");
        if (!Files.isDirectory(archive)) {
            long t0 = System.nanoTime();
            FixtureRun run = ReportScaleTest.writeSoak(archive);
            System.out.printf("archive: %,d samples, %,d windows in %,d ms%n", run.samples, run.windows,
                    (System.nanoTime() - t0) / 1_000_000);
        }
        for (int i = 0; i < 5; i++) {
            Path out = dir.resolve("soak.html");
            long t0 = System.nanoTime();
            ReportGenerator.generate(archive, ReportOptions.allRuns(), out);
            System.out.printf("report %d: %,d ms, %,d bytes%n", i + 1, (System.nanoTime() - t0) / 1_000_000,
                    Files.size(out));
        }
    }
}
