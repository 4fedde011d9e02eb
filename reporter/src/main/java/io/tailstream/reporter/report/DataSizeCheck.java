package io.tailstream.reporter.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.ValidityChecks.Problem;
import io.tailstream.schemas.event.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The data-size check: where a plan says a workload's data should exceed the buffer pool (step option {@value
 * #EXPECT_DATA_LARGER}), whether the data (tables plus indexes at step start, {@value #DATA_BYTES}) was larger than
 * the pool the target's variables give. Judged per target and workload on its step with the least data relative to
 * the pool. Feeds the {@code dataSize} verdict check and checklist item. Stateless and thread safe.
 */
final class DataSizeCheck {

    /** Step option (reserved key) by which a plan says the workload's data should exceed the buffer pool. */
    public static final String EXPECT_DATA_LARGER = "expect.dataLargerThanBufferPool";
    /** Target variable the producer adds with the workload's data plus index bytes. */
    public static final String DATA_BYTES = FairnessProfile.DATA_BYTES;

    private DataSizeCheck() {}

    /** Per target and workload that the plan expected to be larger than the pool: {data, pool} of its worst step. */
    static Map<String, long[]> worst(List<StepData> steps) {
        Map<String, long[]> worst = new TreeMap<>(); // target · workload -> data, pool
        for (StepData s : steps) {
            if (!"true".equals(option(s.info().options(), EXPECT_DATA_LARGER))) {
                continue;
            }
            Long data = FairnessProfile.bytes(s.variables().get(DATA_BYTES));
            Long pool = FairnessProfile.poolBytes(FairnessProfile.familyOf(s.product(), s.variables()), s.variables());
            if (data == null || pool == null || pool <= 0) {
                continue;
            }
            String key = s.info().target() + " · " + s.info().workload();
            long[] w = worst.get(key);
            if (w == null || (double) data / pool < (double) w[0] / w[1]) {
                worst.put(key, new long[] {data, pool});
            }
        }
        return worst;
    }

    /** The finding of a target and workload ({@code target · workload}): its data and pool in MiB. */
    static Text text(String key, long[] w) {
        return Text.of(w[0] > w[1] ? "finding.dataSizeOk" : "finding.dataSize", key, FairnessProfile.mib(w[0]),
                FairnessProfile.mib(w[1]));
    }

    /** A {@code dataSize} problem per target and workload whose data was not larger than the pool. */
    static List<Problem> problems(List<StepData> steps) {
        List<Problem> out = new ArrayList<>();
        Map<String, StepData> firstOf = new LinkedHashMap<>();
        steps.forEach(s -> firstOf.putIfAbsent(s.info().target() + " · " + s.info().workload(), s));
        worst(steps).forEach((key, w) -> {
            if (w[0] <= w[1]) {
                StepData s = firstOf.get(key);
                out.add(new Problem("dataSize", s.info().workload(), Set.of(s.info().target()), null, text(key, w)));
            }
        });
        return out;
    }

    private static String option(String optionsJson, String key) {
        if (optionsJson == null || optionsJson.isBlank()) {
            return null;
        }
        try {
            JsonNode n = Json.MAPPER.readTree(optionsJson).get(key);
            return n == null ? null : n.asText();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("steps dataset: options is not a JSON object: " + e.getOriginalMessage(),
                    e);
        }
    }
}
