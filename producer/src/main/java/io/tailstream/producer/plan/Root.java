package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import io.tailstream.producer.RunPlan;
import io.tailstream.schemas.block.SampleStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The root of a plan file as Jackson binds it. Each setter and creator checks its own value, so an error surfaces
 * while the parser still points at it and the message gets the file's line and the field's path (see
 * {@link PlanFile}); every entry class of the plan does the same.
 *
 * <p>Jackson names this class and the entry classes in its errors ("Cannot construct instance of `PlateauEntry`");
 * {@link PlanFile} passes them on without the package, so their simple names are part of what users read: renaming
 * one changes the messages. Not thread safe; used once per parse.
 */
final class Root {
    String name;
    List<TargetEntry> targets;
    List<WorkloadEntry> workloads;
    List<Integer> threads = List.of(8);
    Duration warmup = Duration.ofSeconds(10);
    Duration duration = Duration.ofSeconds(60);
    Long transactions;
    int rounds = 1;
    Double rate;
    int reportInterval = 10;
    boolean prepare;
    PlateauEntry plateau;
    double clientCpuLimitPct = 50;
    Duration reconnectTimeout;
    List<SampleStatus> ignoreErrors;
    List<String> variables;
    List<String> accept = List.of();
    ProducersEntry producers;
    boolean serverCounters = true;
    LiveView live = LiveView.OFF;

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    Root(@JsonProperty(value = "targets", required = true) List<TargetEntry> targets,
         @JsonProperty(value = "workloads", required = true) List<WorkloadEntry> workloads) {
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("at least one target is needed");
        }
        if (workloads == null || workloads.isEmpty()) {
            throw new IllegalArgumentException("at least one workload is needed");
        }
        this.targets = targets;
        this.workloads = workloads;
    }

    @JsonSetter("name")
    void name(String v) {
        if (v == null || v.isBlank() || v.length() > 128) {
            throw new IllegalArgumentException("must be 1..128 characters, was '" + v + "'");
        }
        name = v;
    }

    @JsonSetter("threads")
    void threads(Object v) {
        threads = ThreadSweep.ofYaml(v);
    }

    @JsonSetter("warmup")
    void warmup(String v) {
        warmup = Durations.parse(v);
    }

    @JsonSetter("duration")
    void duration(String v) {
        duration = Durations.parsePositive(v);
    }

    @JsonSetter("transactions")
    void transactions(long v) {
        if (v < 1) {
            throw new IllegalArgumentException("must be >= 1, was " + v);
        }
        transactions = v;
    }

    @JsonSetter("rounds")
    void rounds(int v) {
        if (v < 1 || v > 1000) {
            throw new IllegalArgumentException("must be in 1..1000, was " + v);
        }
        rounds = v;
    }

    @JsonSetter("rate")
    void rate(double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("must be > 0 transactions/s, was " + v);
        }
        rate = v;
    }

    @JsonSetter("reportInterval")
    void reportInterval(int v) {
        if (v < 0 || v > 3600) {
            throw new IllegalArgumentException("must be in 0..3600 seconds, was " + v);
        }
        reportInterval = v;
    }

    @JsonSetter("prepare")
    void prepare(boolean v) {
        prepare = v;
    }

    @JsonSetter("serverCounters")
    void serverCounters(boolean v) {
        serverCounters = v;
    }

    @JsonSetter("live")
    void live(boolean v) {
        live = live.with(v, null, null);
    }

    @JsonSetter("liveHttp")
    void liveHttp(String v) {
        live = live.with(null, LiveView.address(v), null);
    }

    @JsonSetter("alertWebhook")
    void alertWebhook(String v) {
        live = live.with(null, null, LiveView.webhook(v));
    }

    @JsonSetter("plateau")
    void plateau(PlateauEntry v) {
        plateau = v;
    }

    @JsonSetter("reconnectTimeout")
    void reconnectTimeout(String v) {
        reconnectTimeout = Durations.parsePositive(v);
    }

    @JsonSetter("clientCpuLimitPct")
    void clientCpuLimitPct(double v) {
        if (!(v > 0 && v <= 100)) {
            throw new IllegalArgumentException("must be in (0, 100], was " + v);
        }
        clientCpuLimitPct = v;
    }

    @JsonSetter("ignoreErrors")
    void ignoreErrors(List<String> v) {
        List<SampleStatus> out = new ArrayList<>();
        for (String label : v) {
            SampleStatus s = Arrays.stream(SampleStatus.values())
                    .filter(x -> x != SampleStatus.OK && x.label().equals(label.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("'" + label + "' is not an error class (one"
                            + " of " + Arrays.stream(SampleStatus.values()).filter(x -> x != SampleStatus.OK)
                            .map(SampleStatus::label).toList() + ")"));
            out.add(s);
        }
        ignoreErrors = out;
    }

    /** Verdict checks the plan waives: {@code accept: [isolation, durability]}. */
    @JsonSetter("accept")
    void accept(List<CheckEntry> v) {
        if (v == null) {
            throw new IllegalArgumentException("must be a list of verdict checks (any of " + RunPlan.CHECKS + ")");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (CheckEntry check : v) {
            if (!seen.add(check.id)) {
                throw new IllegalArgumentException("'" + check.id + "' is listed twice");
            }
        }
        accept = v.stream().map(c -> c.id).toList();
    }

    @JsonSetter("producers")
    void producers(ProducersEntry v) {
        producers = v;
    }

    @JsonSetter("variables")
    void variables(List<String> v) {
        for (String name : v) {
            if (name == null || !name.matches("[A-Za-z0-9_.]{1,64}")) {
                throw new IllegalArgumentException("'" + name + "' is not a server variable name");
            }
        }
        variables = v;
    }
}
