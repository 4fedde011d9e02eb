package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The structure of {@code infra/deploy/}, which no Docker engine runs here: docker-compose.yml is YAML with three
 * KRaft brokers of the Kafka version tailstream is built against, one cluster; the aggregator and archiver command
 * lines parse with the real {@code tailstream} command, serve /metrics where prometheus.yml scrapes them, and use
 * the samples topic's partitions of create-topics.sh; the dashboard is JSON whose every panel has queries.
 */
class DeployFilesTest {

    @Test
    @SuppressWarnings("unchecked")
    void compose_threeKraftBrokersOfThePomsKafka_oneCluster() {
        Map<String, Object> services = (Map<String, Object>) DeployFiles.yaml(DeployFiles.COMPOSE).get("services");
        assertThat(services).containsKeys("kafka-1", "kafka-2", "kafka-3", "topics", "aggregator", "archiver",
                "prometheus", "grafana");
        String image = "apache/kafka:" + kafkaVersion();
        Set<String> clusterIds = new HashSet<>();
        Set<String> nodeIds = new HashSet<>();
        for (int i = 1; i <= 3; i++) {
            Map<String, Object> broker = (Map<String, Object>) services.get("kafka-" + i);
            assertThat(broker.get("image")).isEqualTo(image);
            Map<String, Object> env = (Map<String, Object>) broker.get("environment");
            assertThat(env.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
            assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS"))
                    .isEqualTo("1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093");
            assertThat(env.get("KAFKA_MIN_INSYNC_REPLICAS")).isEqualTo("2");
            assertThat(env.get("KAFKA_ADVERTISED_LISTENERS").toString()).contains("INTERNAL://kafka-" + i + ":9092");
            clusterIds.add(env.get("CLUSTER_ID").toString());
            nodeIds.add(env.get("KAFKA_NODE_ID").toString());
        }
        assertThat(clusterIds).hasSize(1);
        assertThat(nodeIds).containsExactlyInAnyOrder("1", "2", "3");
        assertThat(((Map<String, Object>) services.get("topics")).get("image")).isEqualTo(image);
    }

    @Test
    @SuppressWarnings("unchecked")
    void compose_aggregatorAndArchiver_areValidCommandLines_scrapedByPrometheus() {
        Map<String, Object> services = (Map<String, Object>) DeployFiles.yaml(DeployFiles.COMPOSE).get("services");
        List<String> aggregate = (List<String>) ((Map<String, Object>) services.get("aggregator")).get("command");
        List<String> archive = (List<String>) ((Map<String, Object>) services.get("archiver")).get("command");
        assertThat(aggregate.get(0)).isEqualTo("aggregate");
        assertThat(archive.get(0)).isEqualTo("archive");
        for (List<String> command : List.of(aggregate, archive)) {
            // parsed by the real command: an option renamed or removed fails here
            CommandLine.ParseResult parsed = Cli.commandLine().parseArgs(command.toArray(String[]::new));
            CommandLine.ParseResult sub = parsed.subcommand();
            assertThat(sub.matchedOptionValue("--bootstrap-servers", ""))
                    .isEqualTo("kafka-1:9092,kafka-2:9092,kafka-3:9092");
        }
        CommandLine.ParseResult agg = Cli.commandLine().parseArgs(aggregate.toArray(String[]::new)).subcommand();
        assertThat(agg.matchedOptionValue("--partitions", 0)).as("create-topics.sh's samples partitions")
                .isEqualTo(DeployFiles.samplePartitions());

        Set<String> scraped = new HashSet<>();
        Map<String, Object> prometheus = DeployFiles.yaml(DeployFiles.PROMETHEUS);
        for (Map<String, Object> job : (List<Map<String, Object>>) prometheus.get("scrape_configs")) {
            for (Map<String, Object> sc : (List<Map<String, Object>>) job.get("static_configs")) {
                scraped.addAll((List<String>) sc.get("targets"));
            }
        }
        assertThat(scraped).contains("aggregator:" + httpPort(aggregate), "archiver:" + httpPort(archive));
        assertThat(prometheus.get("rule_files")).isEqualTo(List.of("alerts.yml"));
    }

    @Test
    void dashboard_everyPanelQueriesPrometheus() {
        JsonNode dashboard = DeployFiles.dashboard();
        assertThat(dashboard.get("uid").asText()).isEqualTo("tailstream");
        List<String> titles = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            titles.add(panel.get("title").asText());
            assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
            assertThat(panel.at("/datasource/uid").asText()).isEqualTo("prometheus");
        }
        assertThat(String.join("|", titles)).contains("QPS", "TPS", "P99", "Stalls open", "Errors", "Dead letters",
                "Aggregator state", "Archiver lag", "spool");
        assertThat(DeployFiles.referencedMetrics()).allMatch(n -> n.startsWith("tailstream_") || n.equals("up"));
    }

    private static String httpPort(List<String> command) {
        String address = command.get(command.indexOf("--http") + 1);
        return address.substring(address.lastIndexOf(':') + 1);
    }

    private static String kafkaVersion() {
        Matcher m = Pattern.compile("<kafka\\.version>([^<]+)</kafka\\.version>")
                .matcher(DeployFiles.read(java.nio.file.Path.of("..", "pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
