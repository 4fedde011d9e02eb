package io.tailstream.benchmarks;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka broker (KRaft, {@link EmbeddedKafka}) in a child JVM, for benchmarks that must not count the broker's CPU
 * as the producer's: in a real evaluation the broker runs on other machines. The child may be pinned to CPUs
 * ({@code taskset -c}), so that on a small machine it stands in for "elsewhere" while the benchmark, pinned to the
 * other CPUs, keeps the same CPU in every run. The child stops when its standard input closes (this process ended)
 * or on {@link #close()}.
 */
final class BrokerProcess implements AutoCloseable {

    private static final String READY = "bootstrap=";

    private final Process process;
    private final String bootstrapServers;

    private BrokerProcess(Process process, String bootstrapServers) {
        this.process = process;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Starts the child and waits until its broker answers and the tailstream topics exist.
     *
     * @param cpus CPU list for {@code taskset -c} ("0", "0-1"), or null to leave the child unpinned
     * @param log  file receiving the child's output
     */
    static BrokerProcess start(String cpus, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BrokerProcess.class.getName()));
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(READY)) {
                return new BrokerProcess(p, line.substring(READY.length()));
            }
        }
        p.destroyForcibly();
        throw new IOException("the broker process ended before it was ready (exit " + waitFor(p) + "); see " + log);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** CPU time the child used so far (ns), from /proc, or -1 where that cannot be read. */
    long cpuNanos() {
        return CpuSnapshot.processCpuNanos(process.pid());
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close(); // the child's cue to stop its broker and exit
        } catch (IOException e) {
            // already gone
        }
        if (waitFor(process) == Integer.MIN_VALUE) {
            process.destroyForcibly();
        }
    }

    private static int waitFor(Process p) {
        try {
            return p.waitFor(60, TimeUnit.SECONDS) ? p.exitValue() : Integer.MIN_VALUE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Integer.MIN_VALUE;
        }
    }

    /** The child: a broker on a free port with the tailstream topics, until standard input closes. */
    public static void main(String[] args) throws IOException {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            System.out.println(READY + kafka.bootstrapServers());
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our standard input (or to die)
            }
        }
    }
}
