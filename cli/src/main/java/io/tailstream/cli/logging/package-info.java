/**
 * The command's SLF4J binding: log lines on stderr, one line each, with the repeated warnings of a Kafka or
 * database outage summarized (see {@link io.tailstream.cli.logging.LogSummary}).
 */
package io.tailstream.cli.logging;
