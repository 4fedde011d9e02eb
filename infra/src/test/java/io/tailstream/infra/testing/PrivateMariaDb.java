package io.tailstream.infra.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of this test's own ({@code mariadb-install-db}, then {@code mariadbd} with
 * {@code --skip-grant-tables} on a free port of 127.0.0.1, a 32 MB buffer pool, database {@code bench}): stopping it
 * is SIGTERM to the process this class started, a clean shutdown. As root the server runs as the {@code mysql} user.
 * A test fails (or is skipped, see {@link TestServices}), with the reason, when the binaries are missing or the
 * server cannot start.
 */
final class PrivateMariaDb implements PrivateDatabase {

    private final Path dir;
    private final int port;
    private final boolean root;
    private Process server;

    private PrivateMariaDb(Path dir, int port, boolean root) {
        this.dir = dir;
        this.port = port;
        this.root = root;
    }

    /** Installs and starts a server, or aborts the test saying why it cannot. */
    static PrivateMariaDb start() {
        Path install = Path.of("/usr/bin/mariadb-install-db");
        Path mariadbd = Path.of("/usr/sbin/mariadbd");
        if (!Files.isExecutable(install) || !Files.isExecutable(mariadbd)) {
            throw TestServices.missing(TestServices.Service.MYSQL, "MariaDB server binaries (" + install + ", "
                    + mariadbd + ") to run a private server");
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        PrivateMariaDb db;
        try {
            Path dir = Files.createTempDirectory("tailstream-mariadb-");
            if (root) {
                UserPrincipal mysql = dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName("mysql");
                Files.setOwner(dir, mysql);
            }
            db = new PrivateMariaDb(dir, ServerProcesses.freePort(), root);
        } catch (IOException e) {
            throw TestServices.missing(TestServices.Service.MYSQL, "a private MariaDB server, which could not be "
                    + "prepared: " + e);
        }
        List<String> cmd = new ArrayList<>(List.of(install.toString(), "--no-defaults",
                "--datadir=" + db.dir.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) {
            cmd.add("--user=mysql");
        }
        String failure = ServerProcesses.run(cmd, db.dir.resolve("install.log"));
        if (failure == null) {
            failure = db.startServer();
        }
        if (failure == null) {
            try (Connection c = DriverManager.getConnection(db.serverUrl(), "root", null);
                 Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE bench");
            } catch (SQLException e) {
                failure = "CREATE DATABASE bench: " + e.getMessage();
            }
        }
        if (failure != null) {
            db.close();
            throw TestServices.missing(TestServices.Service.MYSQL, "a private MariaDB server, which did not start: "
                    + failure);
        }
        return db;
    }

    @Override
    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/bench";
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public void stop() {
        server.destroy();
        try {
            if (!server.waitFor(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("private MariaDB did not stop within 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping private MariaDB", e);
        }
        server = null;
    }

    @Override
    public void startAgain() {
        String failure = startServer();
        if (failure != null) {
            throw new IllegalStateException("private MariaDB did not start again: " + failure);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.destroyForcibly();
            try {
                server.waitFor(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ServerProcesses.deleteTree(dir);
    }

    private String serverUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/";
    }

    /** Starts mariadbd and waits until it accepts a connection; null if it does, else why not. */
    private String startServer() {
        List<String> cmd = new ArrayList<>(List.of("/usr/sbin/mariadbd", "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mariadb.sock"), "--skip-grant-tables", "--innodb-buffer-pool-size=32M",
                "--skip-log-bin"));
        if (root) {
            cmd.add("--user=mysql");
        }
        try {
            server = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        } catch (IOException e) {
            return String.join(" ", cmd) + ": " + e.getMessage();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            try (Connection c = DriverManager.getConnection(serverUrl(), "root", null)) {
                return null;
            } catch (SQLException e) {
                if (!server.isAlive() || System.nanoTime() - deadline > 0) {
                    return "mariadbd " + (server.isAlive() ? "did not accept connections within 120 s" : "exited")
                            + ": " + ServerProcesses.tail(dir.resolve("server.log"));
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
    }
}
