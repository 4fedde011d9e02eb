package io.tailstream.cli;

/** {@link DatabaseRestartContract} on a MariaDB server of the test's own (SIGTERM: a clean shutdown). */
class RunMariaDbRestartIntegrationTest extends DatabaseRestartContract {

    @Override
    PrivateDatabase startDatabase() {
        return PrivateMariaDb.start();
    }
}
