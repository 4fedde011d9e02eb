package io.tailstream.producer.workload;

import io.tailstream.producer.workload.largerow.LargeRowInsertWorkload;
import io.tailstream.producer.workload.sysbench.OltpScript;
import io.tailstream.producer.workload.sysbench.SysbenchOltpWorkload;
import io.tailstream.producer.workload.tpcc.TpccWorkload;
import io.tailstream.producer.workload.ycsb.YcsbPreset;
import io.tailstream.producer.workload.ycsb.YcsbWorkload;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The registry of workloads by name. Thread safe (immutable). */
public final class Workloads {

    private static final Map<String, Function<Map<String, String>, Workload>> FACTORIES;

    static {
        Map<String, Function<Map<String, String>, Workload>> m = new LinkedHashMap<>();
        for (OltpScript script : OltpScript.values()) {
            m.put(script.scriptName(), options -> SysbenchOltpWorkload.create(script, options));
        }
        for (YcsbPreset preset : YcsbPreset.values()) {
            m.put(preset.workloadName(), options -> YcsbWorkload.create(preset, options));
        }
        m.put(LargeRowInsertWorkload.NAME, LargeRowInsertWorkload::create);
        m.put(TpccWorkload.NAME, TpccWorkload::create);
        FACTORIES = Map.copyOf(m);
    }

    private Workloads() {}

    /** Names of every workload. */
    public static Set<String> names() {
        return new java.util.TreeSet<>(FACTORIES.keySet());
    }

    /**
     * Creates a workload, validating its options.
     *
     * @throws IllegalArgumentException for an unknown name or a bad option, naming it
     */
    public static Workload create(WorkloadSpec spec) {
        Function<Map<String, String>, Workload> f = FACTORIES.get(spec.name());
        if (f == null) {
            throw new IllegalArgumentException("unknown workload '" + spec.name() + "'; known: " + names());
        }
        return f.apply(spec.workloadOptions());
    }
}
