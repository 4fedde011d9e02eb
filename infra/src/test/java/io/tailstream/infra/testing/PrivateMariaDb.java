package io.tailstream.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A MariaDB server of this test's own ({@code mariadb-install-db}, then {@code mariadbd} with
 * {@code --skip-grant-tables} on a free port of 127.0.0.1, a 32 MB buffer pool, database {@code bench}): stopping it
 * is SIGTERM to the process this class started, a clean shutdown. As root the server runs as the {@code mysql} user.
 * A test is skipped, with the reason, when the binaries are missing or the server cannot start.
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
            Assumptions.abort("needs MariaDB server binaries (" + install + ", " + mariadbd + ") to run a private"
                    + " server");
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
            db = new PrivateMariaDb(dir, freePort(), root);
        } catch (IOException e) {
            Assumptions.abort("cannot prepare a private MariaDB server: " + e);
            return null;
        }
        List<String> cmd = new ArrayList<>(List.of(install.toString(), "--no-defaults",
                "--datadir=" + db.dir.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (root) {
            cmd.add("--user=mysql");
        }
        String failure = run(cmd, db.dir.resolve("install.log"));
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
            Assumptions.abort("cannot start a private MariaDB server: " + failure);
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
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
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
                            + ": " + tail(dir.resolve("server.log"));
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

    private static String run(List<String> cmd, Path log) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return String.join(" ", cmd) + ": no exit within 180 s";
            }
            return p.exitValue() == 0 ? null : String.join(" ", cmd) + " exited " + p.exitValue() + ": " + tail(log);
        } catch (IOException e) {
            return String.join(" ", cmd) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return String.join(" ", cmd) + ": interrupted";
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
