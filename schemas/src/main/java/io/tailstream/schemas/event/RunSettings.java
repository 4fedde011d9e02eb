package io.tailstream.schemas.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The effective configuration of a run as {@link RunStarted#settings()} carries it, secrets masked: URLs redacted
 * ({@link Secrets#redactUrl}, again on construction) and no password, ever (the producer never reads one into it).
 * Immutable.
 *
 * <p><b>Version 2</b> (this one, {@code version} 2): typed fields. <b>Version 1</b> was a JSON object of strings
 * ({@code "plateau": "minGainPct=5.0, patience=1"}, {@code "threads": "[8, 16]"}, {@code "target.NAME.url"}, ...),
 * as older producers wrote it, older Kafka topics hold it and older archives keep it in {@code runs.settings}. Every
 * JSON reader of this type reads both (a JSON object with a numeric {@code version} is typed, any other is version
 * 1); version-1 values come out typed, {@code version} 1, a value that cannot be read as absent (null).
 *
 * @param version            {@link #VERSION} as a producer writes it; 1 when read from a version-1 object
 * @param threads            thread counts the plan sweeps, in order
 * @param rounds             repetitions of each (target, workload, threads)
 * @param warmupMs           warm-up per step, ms
 * @param measureMs          measurement per step, ms
 * @param transactions       measured transactions per step (all threads), or null to measure by time only
 * @param loop               {@code closed} (no think time) or {@code open} (intended starts at {@code rate})
 * @param rate               open loop: intended transactions per second over all threads; null for closed loop
 * @param plateau            the plan's sweep stop, or null when it runs every thread count
 * @param clientCpuLimitPct  a step is client-bound when the load generator's CPU (% of the machine) reaches this
 * @param reconnectTimeoutMs how long a step may go on without any connection before it fails, ms
 * @param intervalSeconds    console interval lines every this many seconds, 0 for none
 * @param prepare            whether the producer created and loaded the workloads' tables first
 * @param ignoredErrors      error classes (labels, sorted) every target ignores; null for each product's default
 *                           (see {@link TargetSetting#ignoredErrors()} for the effective ones)
 * @param accept             verdict checks the plan waives, as the plan names them
 * @param producers          the load generators sharing the run, or null for a producer alone
 * @param variables          server variables the plan captures, or null for each product's defaults
 * @param targets            the targets by name, in plan order
 * @param workloads          each workload's effective options (as the workload reports them), by workload name
 */
@JsonDeserialize(using = RunSettings.Reader.class)
public record RunSettings(
        int version,
        List<Integer> threads,
        Integer rounds,
        Long warmupMs,
        Long measureMs,
        Long transactions,
        String loop,
        Double rate,
        PlateauSetting plateau,
        Double clientCpuLimitPct,
        Long reconnectTimeoutMs,
        Integer intervalSeconds,
        Boolean prepare,
        List<String> ignoredErrors,
        List<String> accept,
        ProducersSetting producers,
        List<String> variables,
        Map<String, TargetSetting> targets,
        Map<String, Map<String, String>> workloads) {

    /** The version this contract writes. */
    public static final int VERSION = 2;

    /** Settings of a run whose {@code run_started} carried none: version 1, every field absent. */
    public static final RunSettings NONE = fromVersion1(Map.of());

    public RunSettings {
        threads = threads == null ? null : List.copyOf(threads);
        ignoredErrors = ignoredErrors == null ? null : List.copyOf(ignoredErrors);
        accept = accept == null ? null : List.copyOf(accept);
        variables = variables == null ? null : List.copyOf(variables);
        targets = targets == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(targets));
        if (workloads != null) {
            Map<String, Map<String, String>> copy = new LinkedHashMap<>();
            workloads.forEach((name, options) -> copy.put(name, options == null ? null
                    : Collections.unmodifiableMap(new LinkedHashMap<>(options))));
            workloads = Collections.unmodifiableMap(copy);
        }
    }

    /**
     * The plan's sweep stop (the rule itself is {@code io.tailstream.analysis.Plateau}).
     *
     * @param minGainPct least QPS gain, % of the best lower level, that counts as still rising
     * @param patience   flat levels in a row that end the sweep
     */
    public record PlateauSetting(double minGainPct, int patience) {}

    /**
     * Several load generators running one run.
     *
     * @param count         producers that run it
     * @param splitThreads  true: a step's threads are shared out over its producers; false: each runs them all
     * @param joinTimeoutMs how long a producer ready for a step waits for the others, ms
     */
    public record ProducersSetting(int count, boolean splitThreads, long joinTimeoutMs) {}

    /**
     * A target as the plan names it: no password, URLs redacted.
     *
     * @param url           JDBC URL, redacted
     * @param ignoredErrors error classes its steps ignore (labels, sorted): the plan's, or its product's default
     * @param readOnlyUrls  JDBC URLs of its read-only endpoints, redacted; empty for one endpoint
     * @param user          user name, or null
     * @param monthlyCost   monthly price, or null
     * @param currency      currency of {@code monthlyCost}, or null
     * @param nodes         nodes serving it, or null
     * @param notes         free text, or null
     */
    public record TargetSetting(String url, List<String> ignoredErrors, List<String> readOnlyUrls, String user,
                                Double monthlyCost, String currency, Integer nodes, String notes) {
        public TargetSetting {
            url = Secrets.redactUrl(url);
            ignoredErrors = ignoredErrors == null ? null : List.copyOf(ignoredErrors);
            readOnlyUrls = readOnlyUrls == null ? null : readOnlyUrls.stream().map(Secrets::redactUrl).toList();
        }
    }

    /** Settings as a version-1 producer wrote them: strings by key, read as {@link RunSettingsV1} reads them. */
    public static RunSettings fromVersion1(Map<String, String> settings) {
        return RunSettingsV1.read(Json.MAPPER.valueToTree(settings == null ? Map.of() : settings));
    }

    /** Reads either version: typed when the object has a numeric {@code version}, version 1 otherwise. */
    static final class Reader extends StdDeserializer<RunSettings> {

        /** The typed fields, read by Jackson's own record deserializer rather than this one. */
        private static final ObjectReader TYPED = Json.MAPPER.copy().addMixIn(RunSettings.class, Typed.class)
                .readerFor(RunSettings.class);

        @JsonDeserialize(using = JsonDeserializer.None.class)
        private interface Typed {}

        Reader() {
            super(RunSettings.class);
        }

        @Override
        public RunSettings deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode node = p.readValueAsTree();
            JsonNode version = node.get("version");
            return version != null && version.isNumber() ? TYPED.readValue(node) : RunSettingsV1.read(node);
        }
    }
}
