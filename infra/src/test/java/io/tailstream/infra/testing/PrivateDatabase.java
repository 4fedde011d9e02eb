package io.tailstream.infra.testing;

/**
 * A database server of a test's own, on a free port of 127.0.0.1, that the test may stop and start without
 * touching the shared servers. Not thread safe: one test drives it.
 */
public interface PrivateDatabase extends AutoCloseable {

    /** The JDBC URL of its database. */
    String url();

    /** The user to connect as (no password). */
    String user();

    /** Stops the server (every session ends) and waits until it is down. */
    void stop();

    /** Starts the stopped server and waits until it accepts connections. */
    void startAgain();

    /** Stops the server if it runs and deletes its files. */
    @Override
    void close();
}
