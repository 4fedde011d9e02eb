// One file: Jackson names these classes in its errors, and PlanFile shortens them by the PlanSyntax$ prefix.
package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import java.io.IOException;
import io.tailstream.analysis.Plateau;
import io.tailstream.producer.RunPlan;
import io.tailstream.schemas.block.SampleStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The YAML plan file as Jackson binds it. Each setter and creator checks its own value, so an error surfaces while
 * the parser still points at it and the message gets the file's line and the field's path (see {@link PlanFile}).
 * Not thread safe; used once per parse.
 */
final class PlanSyntax {

    private PlanSyntax() {}

    /** An entry that remembers where it starts in the file, for errors found after binding. */
    abstract static class Located {
        int line;
        int column;
    }

    /** Records the start of every {@link Located} entry as Jackson reads it. */
    static final class LocatingModifier extends BeanDeserializerModifier {
        @Override
        public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription desc,
                                                      JsonDeserializer<?> deserializer) {
            return Located.class.isAssignableFrom(desc.getBeanClass()) ? new Locating(deserializer) : deserializer;
        }
    }

    private static final class Locating extends DelegatingDeserializer {
        Locating(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> newDelegatee) {
            return new Locating(newDelegatee);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonLocation loc = p.currentTokenLocation();
            Object o = super.deserialize(p, ctxt);
            if (o instanceof Located l) {
                l.line = loc.getLineNr();
                l.column = loc.getColumnNr();
            }
            return o;
        }
    }

    /** The root of a plan file. */
    static final class Root {
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

    /**
     * {@code producers: 3}, or {@code producers: {count: 3, threads: each, joinTimeout: 10m}}: the load generators
     * that share the run.
     */
    static final class ProducersEntry {
        int count;
        boolean splitThreads = true;
        Duration joinTimeout;

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        ProducersEntry(int count) {
            this.count = checkCount(count);
        }

        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        ProducersEntry(@JsonProperty(value = "count", required = true) Integer count) {
            if (count == null) {
                throw new IllegalArgumentException("count is needed (how many producers share the run)");
            }
            this.count = checkCount(count);
        }

        private static int checkCount(int n) {
            if (n < 1 || n > io.tailstream.producer.group.ProducerGroup.MAX_PRODUCERS) {
                throw new IllegalArgumentException("must be in 1.."
                        + io.tailstream.producer.group.ProducerGroup.MAX_PRODUCERS + ", was " + n);
            }
            return n;
        }

        @JsonSetter("threads")
        void threads(String v) {
            splitThreads = switch (v) {
                case "split" -> true;
                case "each" -> false;
                default -> throw new IllegalArgumentException("must be 'split' (the step's threads are shared"
                        + " out over the producers) or 'each' (every producer runs them all), was '" + v + "'");
            };
        }

        @JsonSetter("joinTimeout")
        void joinTimeout(String v) {
            joinTimeout = Durations.parsePositive(v);
        }

        io.tailstream.producer.group.ProducerGroup toGroup() {
            return new io.tailstream.producer.group.ProducerGroup(count, splitThreads, joinTimeout);
        }
    }

    /** One verdict check id of {@code accept}, checked as the parser reads it so the error points at the item. */
    static final class CheckEntry {
        final String id;

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        CheckEntry(String id) {
            this.id = RunPlan.requireCheck(id);
        }
    }

    /** One database under test. */
    static final class TargetEntry extends Located {
        final String name;
        final String url;
        EndpointsEntry endpoints;
        String user;
        String passwordEnv;
        Double monthlyCost;
        String currency;
        Integer nodes;
        String notes;
        Map<String, Double> costItems;

        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        TargetEntry(@JsonProperty(value = "name", required = true) String name,
                    @JsonProperty(value = "url") String url) {
            if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("name must be 1..64 of [A-Za-z0-9._-], was '" + name + "'");
            }
            if (url != null) {
                jdbcUrl("url", url);
            }
            this.name = name;
            this.url = url;
        }

        @JsonSetter("endpoints")
        void endpoints(EndpointsEntry v) {
            endpoints = v;
        }

        @JsonSetter("user")
        void user(String v) {
            user = v;
        }

        @JsonSetter("passwordEnv")
        void passwordEnv(String v) {
            if (v == null || !v.matches("[A-Za-z_][A-Za-z0-9_]{0,127}")) {
                throw new IllegalArgumentException("'" + v + "' is not an environment variable name (the password"
                        + " itself never goes in a plan)");
            }
            passwordEnv = v;
        }

        @JsonSetter("monthlyCost")
        void monthlyCost(double v) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("must be >= 0, was " + v);
            }
            monthlyCost = v;
        }

        @JsonSetter("costItems")
        void costItems(LinkedHashMap<String, Double> v) {
            if (v == null || v.isEmpty()) {
                throw new IllegalArgumentException("must list at least one item, such as {compute: 3200, storage: 1500}");
            }
            for (Map.Entry<String, Double> e : v.entrySet()) {
                Double x = e.getValue();
                if (x == null || !(x >= 0) || x.isInfinite()) {
                    throw new IllegalArgumentException("item '" + e.getKey() + "' must be a number >= 0, was " + x);
                }
            }
            costItems = v;
        }

        @JsonSetter("currency")
        void currency(String v) {
            if (v == null || !v.matches("[A-Z]{3}")) {
                throw new IllegalArgumentException("must be an ISO 4217 code such as USD or CNY, was '" + v + "'");
            }
            currency = v;
        }

        @JsonSetter("nodes")
        void nodes(int v) {
            if (v < 1 || v > 1000) {
                throw new IllegalArgumentException("must be in 1..1000, was " + v);
            }
            nodes = v;
        }

        @JsonSetter("notes")
        void notes(String v) {
            notes = v;
        }
    }

    /**
     * A target's endpoints: {@code {primary: URL, readOnly: [URL, ...]}}. Read-only workloads spread their workers
     * over the primary and the read-only endpoints; the others run on the primary.
     */
    static final class EndpointsEntry extends Located {
        String primary;
        List<String> readOnly = List.of();

        @JsonSetter("primary")
        void primary(String v) {
            jdbcUrl("primary", v);
            primary = v;
        }

        @JsonSetter("readOnly")
        void readOnly(List<String> v) {
            if (v == null || v.isEmpty()) {
                throw new IllegalArgumentException("must list at least one JDBC URL (leave readOnly out for a single"
                        + " endpoint)");
            }
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (String url : v) {
                jdbcUrl("readOnly", url);
                if (!seen.add(url)) {
                    throw new IllegalArgumentException("endpoint '" + io.tailstream.schemas.event.Secrets.redactUrl(url)
                            + "' is listed twice");
                }
            }
            readOnly = List.copyOf(v);
        }
    }

    private static void jdbcUrl(String key, String url) {
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException(key + " must start with 'jdbc:', was '"
                    + io.tailstream.schemas.event.Secrets.redactUrl(String.valueOf(url)) + "'");
        }
    }

    /** One workload and its options. */
    static final class WorkloadEntry extends Located {
        final String name;
        Map<String, String> options = Map.of();

        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        WorkloadEntry(@JsonProperty(value = "name", required = true) String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be empty");
            }
            this.name = name;
        }

        @JsonSetter("options")
        void options(Map<String, Object> v) {
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : v.entrySet()) {
                Object o = e.getValue();
                if (o instanceof Map<?, ?> || o instanceof List<?> || o == null) {
                    throw new IllegalArgumentException("option '" + e.getKey() + "' must be a single value, was "
                            + o);
                }
                out.put(e.getKey(), String.valueOf(o));
            }
            options = out;
        }

        /** Expectations of the data set: {@code expect: {dataLargerThanBufferPool: true}}. */
        Map<String, String> expect = Map.of();

        @JsonSetter("expect")
        void expect(Map<String, Object> v) {
            Map<String, String> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : v.entrySet()) {
                if (!e.getKey().equals("dataLargerThanBufferPool")) {
                    throw new IllegalArgumentException("unknown expectation '" + e.getKey()
                            + "' (known: [dataLargerThanBufferPool])");
                }
                if (!(e.getValue() instanceof Boolean b)) {
                    throw new IllegalArgumentException("expectation '" + e.getKey() + "' must be true or false, was "
                            + e.getValue());
                }
                out.put(io.tailstream.producer.workload.WorkloadSpec.EXPECT_PREFIX + e.getKey(), b.toString());
            }
            expect = out;
        }
    }

    /** The plateau stop. */
    static final class PlateauEntry {
        final double minGainPct;
        int patience = 1;

        @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
        PlateauEntry(@JsonProperty(value = "minGainPct", required = true) double minGainPct) {
            new Plateau(minGainPct, 1); // validates
            this.minGainPct = minGainPct;
        }

        @JsonSetter("patience")
        void patience(int v) {
            new Plateau(minGainPct, v); // validates
            patience = v;
        }
    }
}
