package io.tailstream.infra.kafka;

import java.util.List;
import java.util.Map;

/**
 * How a Kafka node that shares the machine with a database and the load recording it
 * ({@link KafkaCluster#startBesideLoad()}) is sized, beyond its lowest CPU priority:
 * <ul>
 * <li>its code compiled by the quick JIT compiler only ({@link #JVM_OPTIONS});</li>
 * <li>one network thread, one request handler thread and one background thread instead of Kafka's 3, 8 and 10:
 *     a local run sends a few requests per second per client, more threads only add wake-ups;</li>
 * <li>a broker session timeout of {@value #SESSION_TIMEOUT_MS} ms instead of 9 s: starved by a load that keeps every
 *     core busy, the node's broker may not heartbeat its own controller for seconds, and a fenced broker answers its
 *     clients "not leader" until it is back. With one node there is no other broker to move its partitions to; the
 *     timeout only detects a lost node;</li>
 * <li>a no-op record in the metadata log after {@value #METADATA_IDLE_MS} ms without other metadata changes instead
 *     of 500 ms: the controller writes and flushes each one, ~0.5 % of a core in the node's raft I/O thread during a
 *     local run. Records that change metadata are written as before.</li>
 * </ul>
 */
final class BesideLoad {

    static final long SESSION_TIMEOUT_MS = 600_000;
    static final long METADATA_IDLE_MS = 5_000;
    /**
     * JVM options of the node: the quick JIT compiler (C1) only. A broker beside a local load handles a few requests
     * per second; the optimising compiler was still compiling its code well into a run, work that the node's CPU
     * share is better spent without.
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1");
    /** Server settings of the node. */
    static final Map<String, String> SETTINGS = Map.of(
            "num.network.threads", "1",
            "num.io.threads", "1",
            "background.threads", "1",
            "broker.session.timeout.ms", String.valueOf(SESSION_TIMEOUT_MS),
            "metadata.max.idle.interval.ms", String.valueOf(METADATA_IDLE_MS));

    private BesideLoad() {}
}
