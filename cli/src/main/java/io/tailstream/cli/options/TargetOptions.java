package io.tailstream.cli.options;

import picocli.CommandLine.Option;

/** Where the workload runs: a JDBC URL and credentials. The password only ever comes from an environment variable. */
public final class TargetOptions {

    @Option(names = "--url", paramLabel = "JDBC_URL",
            description = "JDBC URL of the target (default: embedded in-memory H2).")
    public String url;

    @Option(names = "--user", description = "Database user.")
    public String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "Name of the environment variable holding the password (never pass it on the command line).")
    public String passwordEnv;

    @Option(names = "--read-only-url", paramLabel = "JDBC_URL",
            description = "A read-only endpoint (replica, read-only node) of the same database, same user and"
                    + " password; repeat for several. Read-only workloads spread their workers over --url and these,"
                    + " the others run on --url.")
    public java.util.List<String> readOnlyUrls = new java.util.ArrayList<>();

    @Option(names = "--target-name", paramLabel = "NAME",
            description = "Name of the target in events and reports (default: derived from the URL).")
    public String targetName;
}
