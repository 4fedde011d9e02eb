/**
 * The load client's own health: the process's CPU split into the load generator's threads, the rest of the
 * process's Java threads and the JVM's own work, the machine's CPU, GC time, emit backlog and a {@code SELECT 1}
 * round trip, once a second into the control stream, and the client-bound flag of a step whose load-generator CPU
 * reached the limit.
 */
package io.tailstream.producer.health;
