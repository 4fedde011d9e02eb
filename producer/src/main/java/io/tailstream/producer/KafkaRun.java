package io.tailstream.producer;

import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SpoolingTransport;
import io.tailstream.producer.group.KafkaStepCoordinator;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.group.StepCoordinator;
import io.tailstream.producer.time.Clock;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A run whose samples and control events go to Kafka as a {@link KafkaEmission} says: opens the sink (and, for a run
 * shared by several producers, the Kafka coordinator of its steps) under the {@linkplain KafkaEmission#defaultProducerId
 * default producer id}, runs the plan with a {@link BenchmarkRunner} on them, closes both, and says on the console
 * what the spool took while Kafka was slow or away. Thread safe (stateless); each call has its own sink.
 */
final class KafkaRun {

    private KafkaRun() {}

    /** See {@link BenchmarkRunner#run(RunPlan, KafkaEmission, PrintStream, Consumer)}. */
    static RunResult run(RunPlan plan, KafkaEmission emission, PrintStream console,
                         Consumer<BenchmarkRunner> started) {
        RunResult result;
        SpoolingTransport.SpoolStats stats;
        try (KafkaSampleSink sink = KafkaSampleSink.create(emission.bootstrapServers(), plan.runId(),
                KafkaEmission.defaultProducerId(), emission.kafkaConfig(), EmitterSettings.defaults(), emission.spool());
             StepCoordinator coordinator = coordinator(plan, emission, sink, console)) {
            BenchmarkRunner runner = new BenchmarkRunner(sink, console, Clock.system(), coordinator);
            started.accept(runner);
            result = runner.run(plan);
            stats = sink.spoolStats();
        }
        if (stats != null && (stats.blocksSpooled() > 0 || stats.controlEventsSpooled() > 0)) {
            // episodes and their duration are the block path's; control events are spooled one by one
            String blockEpisodes = stats.episodes() == 0 ? "" : String.format(Locale.ROOT,
                    " (blocks: %d episode(s), spooling for %.1f s in all)", stats.episodes(),
                    stats.spoolingMillis() / 1000.0);
            console.printf(Locale.ROOT, "spool: %,d blocks and %,d control events (%,d bytes, at most %,d"
                    + " at once) went through %s while Kafka was slow or away%s; all replayed%n",
                    stats.blocksSpooled(), stats.controlEventsSpooled(), stats.bytesSpooled(), stats.highWaterBytes(),
                    stats.path().getParent(), blockEpisodes);
        }
        return result;
    }

    private static StepCoordinator coordinator(RunPlan plan, KafkaEmission emission, KafkaSampleSink sink,
                                               PrintStream console) {
        ProducerGroup group = plan.producers();
        if (!group.shared()) {
            return StepCoordinator.alone();
        }
        console.printf(Locale.ROOT, "== producer %s, one of %d in run %s (threads %s); each step starts"
                        + " when all are ready, or %s after this one is, without the missing%n", sink.producerId(),
                group.count(), plan.runId(), group.splitThreads() ? "split between them" : "run by each",
                group.joinTimeout().toString().substring(2).toLowerCase(Locale.ROOT));
        return new KafkaStepCoordinator(emission.bootstrapServers(), emission.kafkaConfig(), plan.runId(),
                sink.producerId(), ClientEnvironment.hostName(), group, sink::publish, Clock.system(), console);
    }
}
