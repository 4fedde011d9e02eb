package io.tailstream.producer.plan;

import java.net.URI;

/**
 * How a local run is watched while it runs: the plan keys {@code live}, {@code liveHttp} and {@code alertWebhook}
 * (the local pipeline's, not the producer's: the producer runs the same either way).
 *
 * @param on           run the aggregator during the load, with its live page and {@code /metrics}
 * @param http         where the live page listens, {@code HOST:PORT} (port 0: a free one); null for the default
 * @param alertWebhook where the aggregator posts its stall and quiet-producer alerts; null for none
 */
public record LiveView(boolean on, String http, URI alertWebhook) {

    /** Not watched live. */
    public static final LiveView OFF = new LiveView(false, null, null);

    /** This view with {@code on}, {@code http} and {@code alertWebhook} replaced where given (not null). */
    public LiveView with(Boolean live, String address, URI webhook) {
        return new LiveView(live != null ? live : on, address != null ? address : http,
                webhook != null ? webhook : alertWebhook);
    }

    /**
     * {@code value} as an alert webhook URL: http or https with a host.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static URI webhook(String value) {
        URI uri;
        try {
            uri = URI.create(value.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: '" + value + "'", e);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("must be an http:// or https:// URL with a host, was '" + value + "'");
        }
        return uri;
    }

    /**
     * Checks {@code value} is {@code HOST:PORT} with a port in 0..65535.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static String address(String value) {
        int colon = value == null ? -1 : value.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("must be HOST:PORT, was '" + value + "'");
        }
        try {
            int port = Integer.parseInt(value.substring(colon + 1));
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be in 0..65535, was " + port);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be HOST:PORT, was '" + value + "'", e);
        }
        return value;
    }
}
