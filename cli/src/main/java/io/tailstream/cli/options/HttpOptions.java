package io.tailstream.cli.options;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.aggregator.http.MetricsServer;
import io.tailstream.cli.UserFacingException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Where a command serves its Prometheus {@code /metrics}: {@code --http HOST:PORT}, or {@code --http-port PORT} with
 * {@code --http-bind ADDRESS} (default 127.0.0.1). Off unless given. The same options and rules as
 * {@code aggregate}'s live monitor ({@link #address}).
 */
public final class HttpOptions {

    /** The default bind address: the endpoints have no authentication. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    @Option(names = "--http", paramLabel = "HOST:PORT", description = "Serve /metrics (Prometheus) on this address,"
            + " e.g. 127.0.0.1:9465; port 0 picks a free port. Same as --http-bind HOST --http-port PORT.")
    public String http;

    @Option(names = "--http-port", paramLabel = "PORT", description = "Serve /metrics (Prometheus) on this port; 0"
            + " picks a free port. Off unless given.")
    public Integer httpPort;

    @Option(names = "--http-bind", paramLabel = "ADDRESS", defaultValue = DEFAULT_BIND,
            description = "Address /metrics listens on (default: ${DEFAULT-VALUE}; it has no authentication, so"
                    + " widen it only on a trusted network).")
    public String httpBind;

    /** Whether any of the options was given. */
    public boolean given(CommandLine commandLine) {
        return http != null || httpPort != null || commandLine.getParseResult().hasMatchedOption("--http-bind");
    }

    /**
     * The address to serve on, or null when off.
     *
     * @throws ParameterException for a malformed or out-of-range value, or a combination the options do not allow
     */
    public InetSocketAddress address(CommandLine commandLine) {
        return address(commandLine, http, httpPort, httpBind);
    }

    /**
     * The address given by {@code --http}, or by {@code --http-port} and {@code --http-bind}; null when neither
     * {@code --http} nor {@code --http-port} is given. Checks: {@code --http} alone, as {@code HOST:PORT} (an IPv6
     * host in brackets); a port in 0..65535; {@code --http-bind} only with {@code --http-port}; a known address.
     */
    public static InetSocketAddress address(CommandLine commandLine, String http, Integer httpPort, String httpBind) {
        boolean bindGiven = commandLine.getParseResult().hasMatchedOption("--http-bind");
        String bind = httpBind;
        Integer port = httpPort;
        if (http != null) {
            if (httpPort != null || bindGiven) {
                throw new ParameterException(commandLine, "--http cannot be combined with --http-port or"
                        + " --http-bind");
            }
            int colon = http.lastIndexOf(':');
            String portText = colon < 0 ? "" : http.substring(colon + 1);
            String host = colon < 0 ? "" : http.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty() || !portText.matches("[0-9]{1,5}")) {
                throw new ParameterException(commandLine, "--http must be HOST:PORT, e.g. 127.0.0.1:9464, got '"
                        + http + "'");
            }
            bind = host;
            port = Integer.parseInt(portText);
        }
        if (port != null && (port < 0 || port > 65535)) {
            throw new ParameterException(commandLine, "--http-port must be in 0..65535, got " + port);
        }
        if (port == null) {
            if (bindGiven) {
                throw new ParameterException(commandLine, "--http-bind needs --http-port");
            }
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(bind), port);
        } catch (UnknownHostException e) {
            throw new ParameterException(commandLine, "--http-bind: unknown address '" + bind + "'", e);
        }
    }

    /**
     * Serves {@code registry}'s {@code /metrics} on {@code address}.
     *
     * @throws UserFacingException naming the options when the address cannot be bound
     */
    public static MetricsServer serve(InetSocketAddress address, PrometheusMeterRegistry registry) {
        try {
            return MetricsServer.start(address, registry);
        } catch (UncheckedIOException e) {
            throw new UserFacingException("--http-port/--http-bind: " + e.getMessage(), e);
        }
    }
}
