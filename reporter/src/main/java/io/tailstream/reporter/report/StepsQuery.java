package io.tailstream.reporter.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.schemas.event.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The selected runs' steps from the {@code steps} dataset, with what they say about their targets. Stateless. */
final class StepsQuery {

    /**
     * What the steps say.
     *
     * @param steps         in start order
     * @param targets       per target name, as its latest step describes it (RTT and client health not yet known)
     * @param variables     per target name, the server variables its latest step captured
     * @param stepVariables per step, the server variables captured at its start
     */
    record Steps(List<StepInfo> steps, Map<String, TargetEnv> targets, Map<String, Map<String, String>> variables,
                 Map<StepKey, Map<String, String>> stepVariables) {}

    private StepsQuery() {}

    /**
     * @throws IllegalStateException if {@code target_variables}, {@code cost_items} or {@code producer_threads} of a
     *                               step is not a JSON object
     */
    static Steps load(ArchiveDatabase db, String inRuns) throws SQLException {
        String sql = "SELECT run_id, step_id, target, url, workload, threads, round, warmup_ms, measure_ms, options,"
                + " outcome, started_at_ms, ended_at_ms, product, version, nodes, monthly_cost, currency,"
                + " target_variables, cost_items, producer_threads FROM " + ArchiveLayout.STEPS + " WHERE " + inRuns
                + " ORDER BY started_at_ms, run_id, step_id";
        List<StepInfo> steps = new ArrayList<>();
        Map<String, TargetEnv> targets = new TreeMap<>();
        Map<String, Map<String, String>> variables = new TreeMap<>();
        Map<StepKey, Map<String, String>> stepVariables = new HashMap<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String target = rs.getString("target");
                StepInfo step = new StepInfo(rs.getString("run_id"), rs.getInt("step_id"), target,
                        rs.getString("url"), rs.getString("workload"), rs.getInt("threads"), rs.getInt("round"),
                        rs.getLong("warmup_ms"), rs.getLong("measure_ms"), rs.getString("options"),
                        rs.getString("outcome"), rs.getLong("started_at_ms"), (Long) rs.getObject("ended_at_ms"),
                        producerThreads(rs.getString("producer_threads")));
                steps.add(step);
                Number nodes = (Number) rs.getObject("nodes");
                Number cost = (Number) rs.getObject("monthly_cost");
                // the latest step describes the target (a re-run after a change wins)
                targets.put(target, new TargetEnv(target, rs.getString("product"), rs.getString("version"),
                        step.url(), nodes == null ? null : nodes.intValue(), cost == null ? null : cost.doubleValue(),
                        rs.getString("currency"), null, null, List.of(), costItems(rs.getString("cost_items"))));
                Map<String, String> parsed = targetVariables(rs.getString("target_variables"));
                variables.put(target, parsed);
                stepVariables.put(StepKey.of(step), parsed);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("steps dataset: target_variables, cost_items or producer_threads is not"
                    + " a JSON object: " + e.getOriginalMessage(), e);
        }
        return new Steps(steps, targets, variables, stepVariables);
    }

    private static Map<String, String> targetVariables(String json) throws JsonProcessingException {
        return json == null || json.isBlank() ? Map.of() : Json.MAPPER.convertValue(Json.MAPPER.readTree(json),
                new TypeReference<Map<String, String>>() { });
    }

    private static Map<String, Integer> producerThreads(String json) throws JsonProcessingException {
        return json == null || json.isBlank() ? Map.of() : Json.MAPPER.convertValue(Json.MAPPER.readTree(json),
                new TypeReference<Map<String, Integer>>() { });
    }

    private static Map<String, Double> costItems(String json) throws JsonProcessingException {
        return json == null || json.isBlank() ? null : Json.MAPPER.convertValue(Json.MAPPER.readTree(json),
                new TypeReference<LinkedHashMap<String, Double>>() { });
    }
}
