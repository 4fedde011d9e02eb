/**
 * TPC-C after the specification's revision 5.11: its nine tables and their initial population for N warehouses
 * ({@link io.tailstream.producer.workload.tpcc.TpccLoader}), its random numbers and strings
 * ({@link io.tailstream.producer.workload.tpcc.TpccRandom}: NURand with the constants C and the rule that keeps the
 * run's apart from the load's, last names, a- and n-strings) and its consistency conditions 1 to 4
 * ({@link io.tailstream.producer.workload.tpcc.TpccConsistency}).
 */
package io.tailstream.producer.workload.tpcc;
