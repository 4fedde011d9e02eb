package io.tailstream.cli.command;

import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;

/** Turns the shared option groups into the producer's configuration, refusing what is missing or contradictory. */
final class CommandInputs {

    /** The target when no {@code --url} is given: embedded in-memory H2. */
    static final String DEFAULT_H2_DATABASE = "tailstream";

    private CommandInputs() {}

    static Target target(TargetOptions o, CommandLine cl) {
        if (o.url == null) {
            if (o.user != null || o.passwordEnv != null || !o.readOnlyUrls.isEmpty()) {
                throw new CommandLine.ParameterException(cl, "--user, --password-env and --read-only-url need --url");
            }
            return Target.h2InMemory(o.targetName != null ? o.targetName : "h2-mem", DEFAULT_H2_DATABASE);
        }
        Supplier<String> password = () -> null;
        if (o.passwordEnv != null) {
            String var = o.passwordEnv;
            if (System.getenv(var) == null) {
                throw new CommandLine.ParameterException(cl,
                        "--password-env " + var + ": the environment variable " + var + " is not set");
            }
            password = () -> System.getenv(var);
        }
        String name = o.targetName != null ? o.targetName : nameFromUrl(o.url);
        try {
            if (o.readOnlyUrls.isEmpty()) {
                return Target.of(name, o.url, o.user, password);
            }
            java.util.Set<String> seen = new java.util.HashSet<>(List.of(o.url));
            for (String ro : o.readOnlyUrls) {
                if (!seen.add(ro)) {
                    throw new CommandLine.ParameterException(cl, "--read-only-url "
                            + io.tailstream.schemas.event.Secrets.redactUrl(ro) + " is given twice (or equals --url)");
                }
            }
            Target t = Target.withReadOnlyEndpoints(name, o.url, o.readOnlyUrls, o.user, password);
            // every endpoint is a node: the report's scale-out view compares 1 node with N
            return new Target(t.name(), t.jdbcUrl(), t.user(), t.password(), null, null, t.endpoints().size(), null,
                    t.readOnlyUrls());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
    }

    /** {@code jdbc:mysql://db1.example:3306/sbtest} gives {@code mysql-db1.example-3306}. */
    static String nameFromUrl(String url) {
        String rest = url.startsWith("jdbc:") ? url.substring(5) : url;
        int colon = rest.indexOf(':');
        String kind = colon > 0 ? rest.substring(0, colon) : "db";
        int slashes = rest.indexOf("//");
        if (slashes < 0) {
            return kind;
        }
        String hostPort = rest.substring(slashes + 2).split("[/?;]", 2)[0];
        int at = hostPort.lastIndexOf('@');
        hostPort = at >= 0 ? hostPort.substring(at + 1) : hostPort;
        return (kind + "-" + hostPort.replace(':', '-')).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * The workloads with their options: {@code --tables}, {@code --table-size}, {@code --warehouses} and every {@code --option KEY=VALUE},
     * validated as a plan file's {@code workloads[].options} are (an unknown key names the valid ones).
     */
    static List<WorkloadSpec> workloads(WorkloadOptions o, CommandLine cl) {
        Map<String, String> options = new LinkedHashMap<>();
        if (o.tables != null) {
            options.put("tables", String.valueOf(o.tables));
        }
        if (o.tableSize != null) {
            options.put("table_size", String.valueOf(o.tableSize));
        }
        if (o.warehouses != null) {
            options.put("warehouses", String.valueOf(o.warehouses));
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String kv : o.options) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new CommandLine.ParameterException(cl, "--option '" + kv + "' is not KEY=VALUE (example:"
                        + " --option recordcount=100000)");
            }
            String key = kv.substring(0, eq).strip();
            if (key.startsWith(WorkloadSpec.EXPECT_PREFIX)) {
                throw new CommandLine.ParameterException(cl, "--option " + key + ": expectations belong in a plan"
                        + " file (workloads[].expect), not in workload options");
            }
            if (given.put(key, kv.substring(eq + 1).strip()) != null) {
                throw new CommandLine.ParameterException(cl, "--option " + key + " is given twice");
            }
            if (options.containsKey(key.replace('-', '_'))) {
                throw new CommandLine.ParameterException(cl, "--option " + key + " repeats --"
                        + key.replace('_', '-') + ": give it once");
            }
        }
        options.putAll(given);
        List<WorkloadSpec> specs = o.workloads.stream().map(w -> new WorkloadSpec(w.trim(), options)).toList();
        for (WorkloadSpec spec : specs) {
            try {
                Workloads.create(spec);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                throw new CommandLine.ParameterException(cl, m.startsWith("workload ") || m.startsWith("unknown workload")
                        ? m : "workload " + spec.name() + ": " + m, e);
            }
        }
        return specs;
    }
}
