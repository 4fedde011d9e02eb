package io.tailstream.producer;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The machine and JVM a producer runs on: its host name, the producer id derived from it, and the description a run
 * announces in {@code RunStarted}. Thread safe (stateless; every call looks again).
 */
final class ClientEnvironment {

    private ClientEnvironment() {}

    /** {@code host-pid}: unique per process on a machine, readable in reports. */
    static String producerId() {
        return hostName() + "-" + ProcessHandle.current().pid();
    }

    /** This machine's host name, at most 64 characters. */
    static String hostName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host.length() > 64 ? host.substring(0, 64) : host;
    }

    /** Host, OS, JVM, CPUs and maximum heap (MiB), as {@code RunStarted} carries them. */
    static Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("host", hostName());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + Runtime.version());
        m.put("cpus", String.valueOf(Runtime.getRuntime().availableProcessors()));
        m.put("maxHeapMb", String.valueOf(Runtime.getRuntime().maxMemory() / (1024 * 1024)));
        return m;
    }
}
