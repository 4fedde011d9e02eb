package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stages as a cluster deployment runs them: {@code run --bootstrap-servers} only produces, the aggregator runs
 * on its own, {@code archive --until-caught-up} and {@code report} read what the broker holds.
 */
class SeparateStagesIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void produceAggregateArchiveReport_asSeparateCommands() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(2));
            try (Aggregator aggregator = Aggregator.start(bootstrap, AggregatorConfig.defaults(), dir.resolve("state"))) {
                runStages(bootstrap, aggregator);
            }
        }
    }

    private void runStages(String bootstrap, Aggregator aggregator) throws Exception {
        String out = ConsoleCapture.stdoutOf(() -> assertThat(Cli.commandLine().execute("run", "--bootstrap-servers", bootstrap,
                "--workload", "oltp_point_select", "--threads", "2", "--warmup", "1s", "--duration", "2s",
                "--run-id", "stages-1", "--json")).isZero());
        assertThat(out).startsWith("{\"steps\":[{").contains("\"workload\":\"oltp_point_select\"");
        assertThat(aggregator.awaitRunning(Duration.ofSeconds(60))).isTrue();

        long sent = samplesSent(out);
        try (AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
            progress.awaitCounts("stages-1", Map.of(1, sent), Duration.ofSeconds(60));
        }
        assertThat(Cli.commandLine().execute("archive", "--bootstrap-servers", bootstrap, "--archive",
                dir.resolve("archive").toString(), "--until-caught-up")).isZero();
        assertThat(Cli.commandLine().execute("report", "--archive", dir.resolve("archive").toString(),
                "--latest", "--out", dir.resolve("report.html").toString())).isZero();

        try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("archive"))) {
            assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
            assertThat(longValue(db, "SELECT sum(count) FROM windows WHERE op = '*'")).isEqualTo(sent);
            assertThat(longValue(db, "SELECT sum(samples_sent) FROM steps")).isEqualTo(sent);
        }
        assertThat(dir.resolve("report.html")).isRegularFile();
    }

    /** Sum of samplesSent in the --json document (the only thing run --json prints on stdout). */
    private static long samplesSent(String json) {
        JsonNode node = Json.read(json.trim(), JsonNode.class);
        long total = 0;
        for (JsonNode step : node.get("steps")) {
            total += step.get("samplesSent").asLong();
        }
        return total;
    }
}
