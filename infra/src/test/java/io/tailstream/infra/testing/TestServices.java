package io.tailstream.infra.testing;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What the integration tests need from the machine, and what happens when it is missing. By default a missing
 * service fails the test with a message naming what it needs, so a green build means every test ran. A developer
 * without a service skips its tests on purpose: {@code TAILSTREAM_SKIP_MISSING=postgresql,chromium} (or {@code all})
 * turns those failures into skipped tests with the same message. {@code .ci/run} clears the variable.
 */
public final class TestServices {

    /** The variable listing the services whose absence skips a test instead of failing it. */
    public static final String SKIP_MISSING = "TAILSTREAM_SKIP_MISSING";

    /** A service some integration tests need. */
    public enum Service {
        /** A MySQL-compatible server (the local MariaDB, or MySQL 8 in Testcontainers) and MariaDB's binaries. */
        MYSQL,
        /** The local PostgreSQL server and PostgreSQL's binaries. */
        POSTGRESQL,
        /** Headless Chromium, to open reports as a browser does. */
        CHROMIUM,
        /** Prometheus's {@code promtool}, to check the deploy files' rules. */
        PROMTOOL,
        /** sysbench 1.0.20, whose Lua scripts the workloads are compared with. */
        SYSBENCH;

        /** The name {@link #SKIP_MISSING} lists it by. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private TestServices() {}

    /**
     * Ends the calling test because {@code service} is missing: skipped if {@link #SKIP_MISSING} lists it, failed
     * otherwise. Never returns normally.
     *
     * @param what what the test needs and how to provide it
     */
    public static RuntimeException missing(Service service, String what) {
        String message = "needs " + what;
        if (skipped(System.getenv(SKIP_MISSING)).contains(service.id())
                || skipped(System.getenv(SKIP_MISSING)).contains("all")) {
            Assumptions.abort(message + " (skipped: " + SKIP_MISSING + " lists " + service.id() + ")");
        }
        Assertions.fail(message + "; to skip the tests that need it, set " + SKIP_MISSING + "=" + service.id());
        throw new AssertionError("unreachable");
    }

    static Set<String> skipped(String value) {
        if (value == null || value.isBlank()) {
            return Set.of();
        }
        return Arrays.stream(value.split(",")).map(s -> s.strip().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet());
    }
}
