/**
 * The YCSB core workloads A–F and the load phase over {@code usertable(YCSB_KEY, FIELD0..)}, with YCSB's
 * {@code CoreWorkload} options and defaults ({@link io.tailstream.producer.workload.ycsb.YcsbOptions}), its key
 * generators (zipfian with constant 0.99, scrambled zipfian with FNV hashing, latest, uniform:
 * {@link io.tailstream.producer.workload.ycsb.YcsbGenerators}) and one operation per transaction, each sample tagged
 * with its op (read, update, insert, scan, read_modify_write) so read and write latencies come out separately.
 */
package io.tailstream.producer.workload.ycsb;
