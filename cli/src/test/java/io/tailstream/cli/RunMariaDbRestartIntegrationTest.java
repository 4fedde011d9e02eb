package io.tailstream.cli;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PrivateDatabase;
/** {@link DatabaseRestartContract} on a MariaDB server of the test's own (SIGTERM: a clean shutdown). */
class RunMariaDbRestartIntegrationTest extends DatabaseRestartContract {

    @Override
    PrivateDatabase startDatabase() {
        return MySqlTestServer.startPrivate();
    }
}
