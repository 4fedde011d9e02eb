package io.tailstream.producer.plan;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tailstream.analysis.Plateau;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads a plan file (YAML) describing a whole evaluation into a {@link RunPlan}. Every key is documented in
 * docs/plans.md. Unknown keys are errors; every error names the file, the line, the field and the bad value
 * ({@link PlanException}). Passwords never appear in a plan: a target names the environment variable that holds its
 * password ({@code passwordEnv}), which must be set when the plan is read and is read again when connecting.
 *
 * <p>Thread safe (stateless).
 */
public final class PlanFile {

    private static final ObjectMapper YAML = JsonMapper.builder(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .addModule(new SimpleModule("plan-locations").setDeserializerModifier(new LocatingModifier()))
            .build();

    private PlanFile() {}

    /**
     * Reads {@code file}; passwords come from the process environment.
     *
     * @param runId the run's id
     * @throws PlanException if the file cannot be read or is invalid
     */
    public static RunPlan load(Path file, String runId) {
        return load(file, runId, System::getenv);
    }

    /**
     * How the plan in {@code file} asks a local run to be watched: its keys {@code live}, {@code liveHttp} and
     * {@code alertWebhook}.
     *
     * @throws PlanException if the file cannot be read or is invalid
     */
    public static LiveView liveView(Path file) {
        return root(read(file), file.toString()).live;
    }

    /** Reads {@code file} with {@code env} standing in for the environment. */
    public static RunPlan load(Path file, String runId, Function<String, String> env) {
        String base = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return parse(read(file), file.toString(), base, runId, env);
    }

    private static String read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new PlanException(file.toString(), 0, 0, "", "no such file", e);
        } catch (IOException e) {
            throw new PlanException(file.toString(), 0, 0, "", "cannot read: " + e.getMessage(), e);
        }
        return text;
    }

    /**
     * Parses plan text.
     *
     * @param fileName    how errors name the source
     * @param defaultName the plan's name when it has no {@code name} key
     */
    public static RunPlan parse(String yaml, String fileName, String defaultName, String runId,
                                Function<String, String> env) {
        return toPlan(root(yaml, fileName), fileName, defaultName, runId, env);
    }

    private static Root root(String yaml, String fileName) {
        Root root;
        try {
            com.fasterxml.jackson.databind.JsonNode tree = YAML.readTree(yaml);
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw new PlanException(fileName, 0, 0, "", "the file is empty (a plan needs targets and workloads)",
                        null);
            }
            root = YAML.readValue(yaml, Root.class);
        } catch (JsonMappingException e) {
            throw mappingError(fileName, e);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            throw new PlanException(fileName, loc == null ? 0 : loc.getLineNr(), loc == null ? 0 : loc.getColumnNr(),
                    "", "not valid YAML: " + e.getOriginalMessage(), e);
        }
        return root;
    }

    private static RunPlan toPlan(Root root, String fileName, String defaultName, String runId,
                                  Function<String, String> env) {
        List<Target> targets = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < root.targets.size(); i++) {
            TargetEntry t = root.targets.get(i);
            String field = "targets[" + i + "]";
            if (!names.add(t.name)) {
                throw new PlanException(fileName, t.line, t.column, field + ".name", "target name '" + t.name
                        + "' appears twice", null);
            }
            Supplier<String> password = () -> null;
            if (t.passwordEnv != null) {
                String var = t.passwordEnv;
                if (env.apply(var) == null) {
                    throw new PlanException(fileName, t.line, t.column, field + ".passwordEnv",
                            "the environment variable '" + var + "' (password of target '" + t.name + "') is not set",
                            null);
                }
                password = () -> env.apply(var);
            }
            if (t.currency != null && t.monthlyCost == null && t.costItems == null) {
                throw new PlanException(fileName, t.line, t.column, field + ".currency", "currency '" + t.currency
                        + "' without monthlyCost or costItems", null);
            }
            Double monthlyCost = t.monthlyCost;
            if (t.costItems != null) {
                double sum = t.costItems.values().stream().mapToDouble(Double::doubleValue).sum();
                if (monthlyCost == null) {
                    monthlyCost = sum;
                } else if (Math.abs(monthlyCost - sum) > 0.01) {
                    throw new PlanException(fileName, t.line, t.column, field + ".costItems", "monthlyCost "
                            + monthlyCost + " is not the sum of costItems " + t.costItems + " = " + sum, null);
                }
            }
            if ((t.url == null) == (t.endpoints == null)) {
                throw new PlanException(fileName, t.line, t.column, field, "target '" + t.name + "' needs either url"
                        + " or endpoints: {primary: URL, readOnly: [URL, ...]}" + (t.url == null ? "" : ", not both"),
                        null);
            }
            if (t.endpoints != null && t.endpoints.primary == null) {
                throw new PlanException(fileName, t.endpoints.line, t.endpoints.column, field + ".endpoints.primary",
                        "the primary endpoint's JDBC URL is required", null);
            }
            String primary = t.url != null ? t.url : t.endpoints.primary;
            List<String> readOnly = t.endpoints == null ? List.of() : t.endpoints.readOnly;
            Integer nodes = t.nodes;
            int endpoints = 1 + readOnly.size();
            if (t.endpoints != null && nodes == null) {
                nodes = endpoints;
            } else if (nodes != null && nodes < endpoints) {
                // an endpoint may front several nodes (a cluster or proxy endpoint), never the other way round
                throw new PlanException(fileName, t.line, t.column, field + ".nodes", "target '" + t.name + "' has "
                        + endpoints + " endpoints but nodes is " + nodes + " (nodes must be >= the endpoints)", null);
            }
            try {
                targets.add(new Target(t.name, primary, t.user, password, monthlyCost, t.currency, nodes, t.notes,
                        readOnly, t.costItems));
            } catch (IllegalArgumentException e) {
                Located at = t.endpoints != null ? t.endpoints : t;
                throw new PlanException(fileName, at.line, at.column, field + (t.endpoints != null ? ".endpoints"
                        : ""), e.getMessage(), e);
            }
        }
        List<WorkloadSpec> workloads = new ArrayList<>();
        Set<WorkloadSpec> seen = new LinkedHashSet<>();
        for (int i = 0; i < root.workloads.size(); i++) {
            WorkloadEntry w = root.workloads.get(i);
            Map<String, String> options = new java.util.LinkedHashMap<>(w.options);
            options.putAll(w.expect);
            WorkloadSpec spec = new WorkloadSpec(w.name, options);
            String field = "workloads[" + i + "]";
            try {
                Workloads.create(spec);
            } catch (IllegalArgumentException e) {
                throw new PlanException(fileName, w.line, w.column, field, e.getMessage(), e);
            }
            if (!seen.add(spec)) {
                throw new PlanException(fileName, w.line, w.column, field, "workload '" + w.name
                        + "' appears twice with the same options", null);
            }
            workloads.add(spec);
        }
        Plateau plateau = root.plateau == null ? null : new Plateau(root.plateau.minGainPct, root.plateau.patience);
        try {
            return new RunPlan(runId, root.name != null ? root.name : defaultName, targets, workloads, root.threads,
                    root.rounds, root.warmup, root.duration, root.reportInterval, root.prepare,
                    root.ignoreErrors == null ? null : Set.copyOf(root.ignoreErrors), root.variables,
                    root.transactions, root.rate, plateau, root.clientCpuLimitPct, root.accept,
                    root.reconnectTimeout, root.producers == null ? null : root.producers.toGroup(),
                    root.serverCounters);
        } catch (IllegalArgumentException e) {
            throw new PlanException(fileName, 0, 0, "", e.getMessage(), e);
        }
    }

    private static PlanException mappingError(String fileName, JsonMappingException e) {
        JsonLocation loc = e.getLocation();
        String field = path(e.getPath());
        String problem;
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (e instanceof UnrecognizedPropertyException u) {
            problem = "unknown key '" + u.getPropertyName() + "' (known keys: "
                    + u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList() + ")";
        } else if (root instanceof IllegalArgumentException) {
            problem = root.getMessage();
        } else {
            problem = firstLine(e.getOriginalMessage());
        }
        return new PlanException(fileName, loc == null ? 0 : loc.getLineNr(), loc == null ? 0 : loc.getColumnNr(),
                field, problem, e);
    }

    /**
     * The first line of Jackson's message, the package left out of the plan classes it names
     * ({@code `PlateauEntry`}): their simple names are what the messages have always said.
     */
    private static String firstLine(String s) {
        if (s == null) {
            return "invalid";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).replace(PlanFile.class.getPackageName() + ".", "");
    }

    /** {@code targets[1].monthlyCost} from Jackson's reference path. */
    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }
}
