/**
 * The load client's own health: CPU of this process and of the machine, GC time, emit backlog and a {@code SELECT 1}
 * round trip, once a second into the control stream, and the client-bound flag of a step whose process CPU
 * exceeded the limit.
 */
package io.tailstream.producer.health;
