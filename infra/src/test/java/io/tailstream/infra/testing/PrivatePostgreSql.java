package io.tailstream.infra.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of this test's own ({@code initdb} + {@code pg_ctl}, on a free port of 127.0.0.1, trust
 * authentication, fsync off), so a test can stop and start a database without touching the shared servers. As root
 * the commands run as the {@code postgres} user ({@code runuser}): PostgreSQL refuses to run as root. A test is
 * failed (or skipped, see {@link TestServices}), with the reason, when the binaries are missing or the cluster
 * cannot start.
 */
final class PrivatePostgreSql implements PrivateDatabase {

    private final Path dir;
    private final Path bin;
    private final int port;
    private final boolean asPostgres;
    private boolean running;

    private PrivatePostgreSql(Path dir, Path bin, int port, boolean asPostgres) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
        this.asPostgres = asPostgres;
    }

    /** Creates and starts a cluster, or aborts the test saying why it cannot. */
    static PrivatePostgreSql start() {
        Path bin = binaries();
        if (bin == null) {
            throw TestServices.missing(TestServices.Service.POSTGRESQL, "PostgreSQL server binaries (initdb, pg_ctl)"
                    + " under /usr/lib/postgresql/*/bin"
                    + " to run a private cluster");
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        PrivatePostgreSql pg;
        try {
            Path dir = Files.createTempDirectory("tailstream-pg-");
            if (root) {
                UserPrincipal postgres = dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName("postgres");
                Files.setOwner(dir, postgres);
            }
            pg = new PrivatePostgreSql(dir, bin, ServerProcesses.freePort(), root);
        } catch (IOException e) {
            throw TestServices.missing(TestServices.Service.POSTGRESQL, "a private PostgreSQL cluster, which could "
                    + "not be prepared: " + e);
        }
        String failure = pg.run("initdb", "-D", pg.dir.resolve("data").toString(), "-A", "trust", "-U", "postgres",
                "--no-sync");
        if (failure == null) {
            failure = pg.startServer();
        }
        if (failure != null) {
            pg.delete();
            throw TestServices.missing(TestServices.Service.POSTGRESQL, "a private PostgreSQL cluster, which did not "
                    + "start: " + failure);
        }
        return pg;
    }

    /** The cluster's {@code postgres} database. */
    @Override
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    @Override
    public String user() {
        return "postgres";
    }

    @Override
    public void startAgain() {
        String failure = startServer();
        if (failure != null) {
            throw new IllegalStateException("private PostgreSQL did not start again: " + failure);
        }
    }

    /** Stops the server (fast shutdown: every session is ended) and waits until it is down. */
    @Override
    public void stop() {
        String failure = run("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "120", "-m", "fast",
                "stop");
        if (failure != null) {
            throw new IllegalStateException("private PostgreSQL did not stop: " + failure);
        }
        running = false;
    }

    @Override
    public void close() {
        if (running) {
            run("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "120", "-m", "immediate", "stop");
        }
        delete();
    }

    private String startServer() {
        String failure = run("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "120", "-l",
                dir.resolve("server.log").toString(), "-o", "-p " + port + " -k " + dir
                        + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
        running = failure == null;
        return failure;
    }

    /** Runs a PostgreSQL program; null if it succeeded, else what it said. */
    private String run(String program, String... args) {
        List<String> cmd = new ArrayList<>();
        if (asPostgres) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.add(bin.resolve(program).toString());
        cmd.addAll(List.of(args));
        return ServerProcesses.run(cmd, dir.resolve("programs.log"));
    }

    private void delete() {
        ServerProcesses.deleteTree(dir);
    }

    /** The newest installed server's bin directory, or null. */
    private static Path binaries() {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb"))
                    && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> versionOf(b.getParent()))).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static int versionOf(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString().replaceAll("\\..*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
