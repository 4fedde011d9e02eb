package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.SharedBroker;
import io.tailstream.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link AggregationProgress#awaitSummaries} against a real broker: done only when every step named has its "all
 * ops" summary and the run's last run summary says it is complete; committed records only; other runs and op
 * summaries do not count.
 */
class AggregationProgressSummariesIntegrationTest {

    private static final Duration SHORT = Duration.ofMillis(300);
    private static final Duration LONG = Duration.ofSeconds(30);

    @RegisterExtension
    static final SharedBroker broker = SharedBroker.withTopics(2);

    @Test
    void waitsForEveryStepSummaryAndACompleteRunSummary() throws Exception {
        String run = "summaries-run";
        List<Integer> steps = List.of(1, 2);
        try (KafkaProducer<String, String> producer = producer(null);
             AggregationProgress progress = AggregationProgress.open(broker.bootstrapServers(), Map.of())) {
            assertThat(progress.awaitSummaries(run, steps, SHORT))
                    .isEqualTo("run summaries-run: after 300 ms no summary for step(s) [1, 2]; no run summary");

            // an op's summary, another run's, and a run summary that is not complete yet
            send(producer, Topics.SUMMARIES, stepSummary(run, 1, "*"));
            send(producer, Topics.SUMMARIES, stepSummary(run, 2, "point_select"));
            send(producer, Topics.SUMMARIES, stepSummary("other-run", 2, "*"));
            send(producer, Topics.RUN_SUMMARIES, runSummary(run, false, "[2]"));
            send(producer, Topics.RUN_SUMMARIES, runSummary("other-run", true, "[]"));
            producer.flush();
            awaitMissing(progress, run, steps,
                    "no summary for step(s) [2]; the run summary is not complete (steps pending: [2])");

            send(producer, Topics.SUMMARIES, stepSummary(run, 2, "*"));
            producer.flush();
            awaitMissing(progress, run, steps, "the run summary is not complete (steps pending: [2])");

            send(producer, Topics.RUN_SUMMARIES, runSummary(run, true, "[]"));
            producer.flush();
            assertThat(progress.awaitSummaries(run, steps, LONG)).isNull();
        }
    }

    @Test
    void aTransactionNotCommittedDoesNotCount() throws Exception {
        String run = "summaries-aborted";
        try (KafkaProducer<String, String> producer = producer("summaries-aborted-tx");
             AggregationProgress progress = AggregationProgress.open(broker.bootstrapServers(), Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, Topics.SUMMARIES, stepSummary(run, 1, "*"));
            send(producer, Topics.RUN_SUMMARIES, runSummary(run, true, "[]"));
            producer.abortTransaction();
            producer.beginTransaction();
            send(producer, Topics.RUN_SUMMARIES, runSummary(run, false, "[1]"));
            producer.commitTransaction();
            // the committed run summary is read, the aborted records never are
            awaitMissing(progress, run, List.of(1),
                    "no summary for step(s) [1]; the run summary is not complete (steps pending: [1])");

            producer.beginTransaction();
            send(producer, Topics.SUMMARIES, stepSummary(run, 1, "*"));
            send(producer, Topics.RUN_SUMMARIES, runSummary(run, true, "[]"));
            producer.commitTransaction();
            assertThat(progress.awaitSummaries(run, List.of(1), LONG)).isNull();
        }
    }

    /** Polls until what is missing is {@code expected} (records become readable a moment after they are sent). */
    private static void awaitMissing(AggregationProgress progress, String run, List<Integer> steps, String expected) {
        long deadline = System.nanoTime() + LONG.toNanos();
        while (!expected.equals(progress.missingSummaries(run, steps)) && System.nanoTime() - deadline < 0) {
            progress.poll(Duration.ofMillis(100));
        }
        assertThat(progress.missingSummaries(run, steps)).isEqualTo(expected);
    }

    private static String stepSummary(String run, int step, String op) {
        return "{\"runId\":\"" + run + "\",\"stepId\":" + step + ",\"op\":\"" + op + "\",\"complete\":true}";
    }

    private static String runSummary(String run, boolean complete, String pending) {
        return "{\"runId\":\"" + run + "\",\"complete\":" + complete + ",\"stepsPending\":" + pending + "}";
    }

    private static void send(KafkaProducer<String, String> producer, String topic, String json) {
        producer.send(new ProducerRecord<>(topic, json));
    }

    private static KafkaProducer<String, String> producer(String transactionalId) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        if (transactionalId != null) {
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }
}
