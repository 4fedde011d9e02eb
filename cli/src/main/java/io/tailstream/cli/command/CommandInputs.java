package io.tailstream.cli.command;

import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
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
            if (o.user != null || o.passwordEnv != null) {
                throw new CommandLine.ParameterException(cl, "--user and --password-env need --url");
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
            return Target.of(name, o.url, o.user, password);
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

    static List<WorkloadSpec> workloads(WorkloadOptions o) {
        Map<String, String> options = new LinkedHashMap<>();
        if (o.tables != null) {
            options.put("tables", String.valueOf(o.tables));
        }
        if (o.tableSize != null) {
            options.put("table_size", String.valueOf(o.tableSize));
        }
        return o.workloads.stream().map(w -> new WorkloadSpec(w.trim(), options)).toList();
    }
}
