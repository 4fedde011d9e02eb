package io.tailstream.reporter.report;

/** Peak throughput of one product with one node and with {@code nodes} nodes; ratio = multi / single. */
public record ScaleOutRow(String workload, String product, String singleTarget, double singleQps, String multiTarget,
                          int nodes, double multiQps, double ratio) {}
