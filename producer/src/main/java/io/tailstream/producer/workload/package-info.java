/**
 * Workloads: what one transaction does. A {@link io.tailstream.producer.workload.Workload} names its ops, says how
 * many statements a transaction runs, prepares and cleans up its data, and opens one
 * {@link io.tailstream.producer.workload.WorkloadSession} per worker connection. The driver knows only these
 * interfaces: a new workload is a new class plus one line in {@link io.tailstream.producer.workload.Workloads}.
 */
package io.tailstream.producer.workload;
