package io.tailstream.producer.target;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP server on 127.0.0.1 that accepts connections and says nothing on the first {@code silent} of them, as a
 * database server too busy to answer does; later connections are forwarded to {@code upstream} (a real server), or
 * held silent as well when there is none.
 */
final class SilentServer implements AutoCloseable {

    private final ServerSocket server;
    private final int silent;
    private final String upstreamHost;
    private final int upstreamPort;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private SilentServer(int silent, String upstreamHost, int upstreamPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.silent = silent;
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        Thread acceptor = new Thread(this::accept, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Silent on every connection. */
    static SilentServer silent() throws IOException {
        return new SilentServer(Integer.MAX_VALUE, null, -1);
    }

    /** Silent on the first {@code silent} connections, then a forwarder to {@code host:port}. */
    static SilentServer silentThenForwarding(int silent, String host, int port) throws IOException {
        return new SilentServer(silent, host, port);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                if (accepted.incrementAndGet() > silent) {
                    Socket up = new Socket(upstreamHost, upstreamPort);
                    sockets.add(up);
                    pipe(client.getInputStream(), up.getOutputStream());
                    pipe(up.getInputStream(), client.getOutputStream());
                }
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void pipe(InputStream in, OutputStream out) {
        Thread t = new Thread(() -> {
            try (in; out) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed: the other follows
            }
        }, "silent-server-pipe");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
