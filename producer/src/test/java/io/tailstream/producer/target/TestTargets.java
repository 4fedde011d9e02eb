package io.tailstream.producer.target;

import io.tailstream.infra.testing.PostgreSqlTestServer;

/** The test servers as the producer takes them. */
public final class TestTargets {

    private TestTargets() {}

    /** The local PostgreSQL, in this JVM's own schema. */
    public static Target postgresql(PostgreSqlTestServer server) {
        return Target.of("postgresql-local", server.url(), server.user(), server::password);
    }
}
