/**
 * The sysbench 1.0.20 OLTP scripts, statement for statement as {@code oltp_common.lua} and the scripts that use
 * it: the same table DDL, the same prepared statements in the same order, the same option defaults and the same
 * random distributions ({@code --rand-type=special} by default). {@link
 * io.tailstream.producer.workload.sysbench.OltpScript} says which statement groups a script runs.
 */
package io.tailstream.producer.workload.sysbench;
