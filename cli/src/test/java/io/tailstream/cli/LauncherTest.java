package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./tailstream} launcher rebuilds the jar when any source is newer than it, in any package, and only then.
 * Runs the real script in a copy of the project's layout, with {@code mvnw} and {@code java} replaced by scripts that
 * record their calls; file times are set explicitly, so nothing depends on the clock's resolution.
 */
class LauncherTest {

    private static final Instant JAR_BUILT = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path root;

    private Path calls;
    private Path bin;

    @BeforeEach
    void layout() throws IOException {
        Path script = Path.of("..", "tailstream").toAbsolutePath().normalize();
        Files.copy(script, root.resolve("tailstream"));
        calls = root.resolve("calls.log");
        bin = Files.createDirectories(root.resolve("bin"));
        executable(root.resolve("mvnw"), """
                #!/usr/bin/env bash
                echo "build $*" >> "%s"
                mkdir -p cli/target && touch -d @%d cli/target/tailstream-all.jar
                """.formatted(calls, JAR_BUILT.getEpochSecond()));
        executable(bin.resolve("java"), """
                #!/usr/bin/env bash
                echo "java $*" >> "%s"
                """.formatted(calls));
        source("pom.xml");
        source("producer/src/main/java/io/tailstream/producer/target/MySqlDialect.java");
        source("producer/src/main/java/io/tailstream/producer/emit/BlockEmitter.java");
        source("reporter/src/main/resources/io/tailstream/reporter/report/report.ftl");
    }

    @Test
    void noJar_builds_thenRuns() throws Exception {
        assertThat(launch("--version")).containsExactly("build -B -q -ntp -DskipTests -pl cli -am install",
                "java -jar " + root.resolve("cli/target/tailstream-all.jar") + " --version");
    }

    @Test
    void jarNewerThanEverySource_runsWithoutBuilding() throws Exception {
        launch();
        Files.delete(calls);
        assertThat(launch()).singleElement().asString().startsWith("java ");
    }

    @Test
    void sourceInPackageNamedTarget_editedAfterBuild_rebuilds() throws Exception {
        launch();
        Files.delete(calls);
        edited("producer/src/main/java/io/tailstream/producer/target/MySqlDialect.java");
        assertThat(launch()).first().asString().startsWith("build ");
    }

    @Test
    void resourceOrPom_editedAfterBuild_rebuilds() throws Exception {
        for (String file : List.of("reporter/src/main/resources/io/tailstream/reporter/report/report.ftl",
                "pom.xml")) {
            launch();
            Files.delete(calls);
            edited(file);
            assertThat(launch()).as(file).first().asString().startsWith("build ");
        }
    }

    @Test
    void buildOutputNewerThanJar_isNotASource() throws Exception {
        launch();
        Files.delete(calls);
        source("producer/target/generated-sources/annotations/Generated.java");
        edited("producer/target/generated-sources/annotations/Generated.java");
        source("target/Top.java");
        edited("target/Top.java");
        assertThat(launch()).singleElement().asString().startsWith("java ");
    }

    /** Runs the launcher and returns the calls it made, in order. */
    private List<String> launch(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("bash", root.resolve("tailstream").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().remove("TAILSTREAM_JAVA_OPTS");
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("launcher ended").isTrue();
        assertThat(p.exitValue()).isZero();
        return Files.readAllLines(calls, StandardCharsets.UTF_8);
    }

    /** A file that existed before the jar was built. */
    private void source(String relative) throws IOException {
        Path f = root.resolve(relative);
        Files.createDirectories(f.getParent());
        Files.writeString(f, "// " + relative + "\n");
        Files.setLastModifiedTime(f, FileTime.from(JAR_BUILT.minusSeconds(3600)));
    }

    /** The file changed after the jar was built. */
    private void edited(String relative) throws IOException {
        Files.setLastModifiedTime(root.resolve(relative), FileTime.from(JAR_BUILT.plusSeconds(60)));
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
