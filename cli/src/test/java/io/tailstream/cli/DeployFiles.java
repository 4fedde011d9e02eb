package io.tailstream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The files under {@code infra/deploy/} as the tests read them: YAML by SnakeYAML (which resolves the merge keys
 * {@code <<:} docker-compose.yml uses), the dashboard as JSON, and the PromQL expressions of both.
 */
final class DeployFiles {

    /** Tests run in the cli module's folder. */
    static final Path DIR = Path.of("..", "infra", "deploy");
    static final Path COMPOSE = DIR.resolve("docker-compose.yml");
    static final Path PROMETHEUS = DIR.resolve("prometheus").resolve("prometheus.yml");
    static final Path ALERTS = DIR.resolve("prometheus").resolve("alerts.yml");
    static final Path ALERT_TESTS = DIR.resolve("prometheus").resolve("alerts-test.yml");
    static final Path DASHBOARD = DIR.resolve("grafana").resolve("tailstream-dashboard.json");
    static final Path TOPICS = DIR.resolve("create-topics.sh");

    private DeployFiles() {}

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(Path file) {
        return (Map<String, Object>) new Yaml().load(read(file));
    }

    static JsonNode dashboard() {
        return Json.read(read(DASHBOARD), JsonNode.class);
    }

    /** The {@code expr} of every alerting rule. */
    @SuppressWarnings("unchecked")
    static List<String> alertExpressions() {
        List<String> exprs = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) yaml(ALERTS).get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                exprs.add(String.valueOf(rule.get("expr")));
            }
        }
        return exprs;
    }

    /** The {@code expr} of every query of every panel. */
    static List<String> dashboardExpressions() {
        List<String> exprs = new ArrayList<>();
        for (JsonNode panel : dashboard().get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                exprs.add(target.get("expr").asText());
            }
        }
        return exprs;
    }

    /** Every metric name the alert rules and the dashboard read ({@link PromQlNames}). */
    static Set<String> referencedMetrics() {
        Set<String> names = new TreeSet<>();
        alertExpressions().forEach(e -> names.addAll(PromQlNames.of(e)));
        dashboardExpressions().forEach(e -> names.addAll(PromQlNames.of(e)));
        return names;
    }

    /** The samples topic's partitions in create-topics.sh. */
    static int samplePartitions() {
        Matcher m = Pattern.compile("(?m)^topic tailstream\\.samples\\s+(\\d+)\\s").matcher(read(TOPICS));
        if (!m.find()) {
            throw new IllegalStateException("no tailstream.samples line in " + TOPICS);
        }
        return Integer.parseInt(m.group(1));
    }
}
