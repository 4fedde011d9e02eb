/**
 * The {@code tailstream} command: picocli subcommands that wire the producer, the aggregator and the reporter
 * together. This is the only module that depends on every stage; the stages depend on {@code schemas} only.
 */
package io.tailstream.cli;
