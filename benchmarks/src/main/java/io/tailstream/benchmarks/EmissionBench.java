package io.tailstream.benchmarks;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.WorkloadData;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.Topics;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What the emission benchmarks share: the target (embedded in-memory H2, loaded once), the broker (in this JVM or a
 * child one) and the Kafka producer settings to compare with the producer's defaults.
 */
final class EmissionBench {

    /** {@code in-process} (default) or {@code process}: where the broker runs. */
    static final String BROKER = System.getProperty("tailstream.bench.broker", "in-process");
    /** With {@code process}: CPUs the broker's JVM is pinned to ({@code taskset -c}), or unpinned. */
    static final String BROKER_CPUS = System.getProperty("tailstream.bench.brokerCpus");

    /** Discards the runner's console output. */
    static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private EmissionBench() {}

    /**
     * Kafka producer settings of the emitting runs, to compare with the producer's defaults:
     * {@code -Dtailstream.bench.compression=zstd|lz4|none}, {@code -Dtailstream.bench.zstdLevel=N},
     * {@code -Dtailstream.bench.lingerMs=N}.
     */
    static Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>();
        String compression = System.getProperty("tailstream.bench.compression");
        if (compression != null) {
            config.put("compression.type", compression);
        }
        String zstdLevel = System.getProperty("tailstream.bench.zstdLevel");
        if (zstdLevel != null) {
            config.put("compression.zstd.level", Integer.parseInt(zstdLevel));
        }
        String linger = System.getProperty("tailstream.bench.lingerMs");
        if (linger != null) {
            config.put("linger.ms", Integer.parseInt(linger));
        }
        return Map.copyOf(config);
    }

    /**
     * The emitter's settings: the producer's defaults, or {@code -Dtailstream.bench.samplesPerBlock=N} samples per
     * block (with as many buffered blocks as keep the same memory bound).
     */
    static EmitterSettings emitterSettings() {
        EmitterSettings d = EmitterSettings.defaults();
        String perBlock = System.getProperty("tailstream.bench.samplesPerBlock");
        if (perBlock == null) {
            return d;
        }
        int n = Integer.parseInt(perBlock);
        int buffers = Math.max(2, (int) ((long) d.maxBufferedBlocks() * d.maxSamplesPerBlock() / n));
        return new EmitterSettings(n, d.maxBlockAge(), d.sweepInterval(), d.heartbeatInterval(), buffers,
                d.finishTimeout());
    }

    /** The benchmark's target, its tables created and loaded. */
    static Target preparedH2(List<WorkloadSpec> workloads) {
        Target target = Target.h2InMemory("h2-mem", "emission-overhead");
        WorkloadData.prepare(target, workloads, 4, QUIET);
        return target;
    }

    /** The main's argument {@code i}, or {@code dflt} when there are fewer. */
    static String arg(String[] args, int i, String dflt) {
        return args.length > i ? args[i] : dflt;
    }

    /** How the broker is set up, for the benchmark's first line. */
    static String brokerDescription() {
        return BROKER.equals("process")
                ? "broker in a child JVM" + (BROKER_CPUS == null ? "" : " on CPUs " + BROKER_CPUS)
                : "in-process broker";
    }

    /**
     * The broker of the run set: in this JVM, or a one-node {@link KafkaCluster} in a child JVM (pinned to
     * {@link #BROKER_CPUS} if given) whose CPU time is read from /proc; the tailstream topics exist.
     */
    record Broker(String bootstrapServers, AutoCloseable owner, LongSupplier cpuNanos) implements AutoCloseable {

        static Broker start() {
            if (BROKER.equals("in-process")) {
                EmbeddedKafka kafka = EmbeddedKafka.start();
                return withTopics(new Broker(kafka.bootstrapServers(), kafka, () -> 0));
            }
            if (BROKER.equals("process")) {
                KafkaCluster cluster = KafkaCluster.start(1,
                        BROKER_CPUS == null ? List.of() : List.of("taskset", "-c", BROKER_CPUS));
                long pid = cluster.process(1).pid();
                return withTopics(new Broker(cluster.bootstrapServers(), cluster,
                        () -> CpuSnapshot.processCpuNanos(pid)));
            }
            throw new IllegalArgumentException("tailstream.bench.broker must be in-process or process: " + BROKER);
        }

        private static Broker withTopics(Broker broker) {
            TopicProvisioner.ensure(broker.bootstrapServers(), Topics.all(2));
            return broker;
        }

        @Override
        public void close() throws Exception {
            owner.close();
        }
    }
}
