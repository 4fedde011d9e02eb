package io.tailstream.producer;

import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.Secrets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan's effective configuration as {@code RunStarted} carries it ({@link RunSettings}, version 2): URLs redacted,
 * passwords never read. Stateless and thread safe.
 */
final class EffectiveSettings {

    private EffectiveSettings() {}

    static RunSettings of(RunPlan plan) {
        Map<String, RunSettings.TargetSetting> targets = new LinkedHashMap<>();
        for (Target t : plan.targets()) {
            targets.put(t.name(), new RunSettings.TargetSetting(t.redactedUrl(), labels(plan.ignoredErrorsFor(t)),
                    t.readOnlyUrls().stream().map(Secrets::redactUrl).toList(), t.user(), t.monthlyCost(),
                    t.currency(), t.nodes(), t.notes()));
        }
        Map<String, Map<String, String>> workloads = new LinkedHashMap<>();
        for (WorkloadSpec w : plan.workloads()) {
            workloads.put(w.name(), Workloads.create(w).options());
        }
        return new RunSettings(RunSettings.VERSION, plan.threads(), plan.rounds(), plan.warmup().toMillis(),
                plan.measure().toMillis(), plan.transactions(), plan.rate() == null ? "closed" : "open", plan.rate(),
                plan.plateau() == null ? null
                        : new RunSettings.PlateauSetting(plan.plateau().minGainPct(), plan.plateau().patience()),
                plan.clientCpuLimitPct(), plan.reconnectTimeout().toMillis(), plan.intervalSeconds(), plan.prepare(),
                plan.ignoredErrors() == null ? null : labels(plan.ignoredErrors()), plan.accept(),
                plan.producers().shared() ? new RunSettings.ProducersSetting(plan.producers().count(),
                        plan.producers().splitThreads(), plan.producers().joinTimeout().toMillis()) : null,
                plan.variables(), targets, workloads);
    }

    /** Error classes as sorted labels: {@code [deadlock, lock_wait_timeout]}. */
    static List<String> labels(Set<SampleStatus> classes) {
        return classes.stream().map(SampleStatus::label).sorted().toList();
    }
}
