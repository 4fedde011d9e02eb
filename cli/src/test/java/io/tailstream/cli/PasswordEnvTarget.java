package io.tailstream.cli;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.TestServices;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The local MariaDB as the commands take it from a user: {@code --url}, {@code --user} and {@code --password-env
 * TAILSTREAM_MYSQL_PASSWORD}, the password read only from that environment variable (which a JVM cannot set, so the
 * tests that use it need it set by whoever runs them, as {@code .ci/run} does).
 */
final class PasswordEnvTarget {

    static final String PASSWORD_ENV = "TAILSTREAM_MYSQL_PASSWORD";

    private PasswordEnvTarget() {}

    /**
     * The server; without one, or without the password in the environment, the test fails or is skipped (see
     * {@link TestServices}), saying why.
     */
    static MySqlTestServer require() {
        MySqlTestServer server = MySqlTestServer.require();
        if (System.getenv(PASSWORD_ENV) == null) {
            throw TestServices.missing(TestServices.Service.MYSQL, PASSWORD_ENV + " in the environment (the commands"
                    + " take --password-env, and a plan names the variable)");
        }
        return server;
    }

    /** Target and workload options for {@code prepare}, {@code run} and {@code cleanup}. */
    static String[] options(MySqlTestServer server, String workloads, int tables, int tableSize) {
        return new String[] {"--url", server.url(), "--user", server.user(), "--password-env", PASSWORD_ENV,
                "--workload", workloads, "--tables", String.valueOf(tables), "--table-size", String.valueOf(tableSize)};
    }

    /** The command line of {@code command}: its name followed by the parts. */
    static String[] args(String command, String[]... parts) {
        return Stream.concat(Stream.of(command), Arrays.stream(parts).flatMap(Arrays::stream)).toArray(String[]::new);
    }
}
