/**
 * The target database's own counters, read once a second during every step on a connection of the producer's own
 * and published as {@code server_counters} events: what the server was doing when the load slowed down.
 */
package io.tailstream.producer.server;
