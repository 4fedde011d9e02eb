package io.tailstream.cli.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the optimising JIT compiler (C2) off the Kafka client's code in the load generator's JVM: the producer's
 * sink runs on code compiled by the quick compiler (C1) only.
 *
 * <p>The producer's Kafka client sends a few requests per second beside the load, far below what C1 code does; yet
 * its code paths warm up slowly and C2 was still compiling them 10-30 s into a run, on cores the database and the
 * workers need. The workers, the JDBC drivers and the block encoder still get C2; so do Kafka Streams and the
 * aggregator, which a local run starts after the load, when the cores are free. (The broker runs in a JVM of its
 * own, at the lowest priority.) The consumers of the aggregator and the archiver share the client's code, and with
 * it C1's.
 * Applied as a HotSpot compiler directive ({@code jcmd Compiler.directives_add}, JEP 165) through the JVM's
 * diagnostic command bean; on a JVM without it nothing changes and a debug line says so.
 */
final class KafkaClientCompilerDirective {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaClientCompilerDirective.class);
    /** Class name prefixes (internal form) of the Kafka client's code. */
    static final List<String> CLIENT_PACKAGES = List.of("org/apache/kafka/clients/", "org/apache/kafka/common/");
    private static final String BEAN = "com.sun.management:type=DiagnosticCommand";
    /** Whether this JVM holds the directive: added once, as the JVM's directive stack is bounded. */
    private static boolean applied; // guarded by the class

    private KafkaClientCompilerDirective() {
    }

    /** The directive: C2 excluded for every method of the Kafka client's packages. */
    static String directive() {
        return "[{ match: [" + CLIENT_PACKAGES.stream().map(p -> "\"" + p + "*.*\"")
                .collect(Collectors.joining(", ")) + "], c2: { Exclude: true } }]";
    }

    /** Adds the directive to this JVM unless it holds it already; returns whether the JVM holds it. */
    static synchronized boolean apply() {
        if (applied) {
            return true;
        }
        Path file = null;
        try {
            file = Files.createTempFile("tailstream-compiler-directives-", ".json");
            Files.writeString(file, directive(), StandardCharsets.UTF_8);
            Object out = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName(BEAN),
                    "compilerDirectivesAdd", new Object[] {new String[] {file.toString()}},
                    new String[] {String[].class.getName()});
            String reply = String.valueOf(out).strip();
            applied = reply.startsWith("1 compiler directives added");
            LOG.debug("compiler directive for the Kafka client's packages: {}", reply);
            return applied;
        } catch (IOException | JMException | RuntimeException e) {
            LOG.debug("cannot add the Kafka client's compiler directive ({}): C2 compiles its code as usual",
                    e.toString());
            return false;
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    LOG.debug("cannot delete {}: {}", file, e.toString());
                }
            }
        }
    }
}
