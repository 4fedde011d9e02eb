package io.tailstream.cli.run;

import io.tailstream.producer.driver.StepResult;
import io.tailstream.schemas.event.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --json} document: {@code {"steps":[{"target":..,"workload":..,"threads":..,"round":..,"tps":..,
 * "qps":..,"avgMs":..,"p95Ms":..,"p99Ms":..,"errors":..,"clientBound":..}, ...]}}, plus {@code maxClientCpuPct},
 * {@code openLoop} and, in open loop, {@code intendedAvgMs/P95Ms/P99Ms/MaxMs} (latency from the intended start).
 * Scripts depend on these names.
 */
public final class StepsJson {

    private StepsJson() {}

    public static String write(List<StepResult> steps) {
        List<Map<String, Object>> out = steps.stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stepId", s.stepId());
            m.put("target", s.target());
            m.put("workload", s.workload());
            m.put("threads", s.threads());
            m.put("round", s.round());
            m.put("tps", s.tps());
            m.put("qps", s.qps());
            m.put("avgMs", s.avgMs());
            m.put("p95Ms", s.p95Ms());
            m.put("p99Ms", s.p99Ms());
            m.put("maxMs", s.maxMs());
            m.put("errors", s.errors());
            m.put("transactions", s.transactions());
            m.put("samplesSent", s.samplesSent());
            m.put("clientBound", s.clientBound());
            m.put("maxClientCpuPct", s.maxClientCpuPct());
            m.put("openLoop", s.openLoop());
            if (s.openLoop()) {
                m.put("intendedAvgMs", s.coAvgMs());
                m.put("intendedP95Ms", s.coP95Ms());
                m.put("intendedP99Ms", s.coP99Ms());
                m.put("intendedMaxMs", s.coMaxMs());
            }
            return m;
        }).toList();
        return Json.writeString(Map.of("steps", out));
    }
}
