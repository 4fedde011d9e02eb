/** The Prometheus meters of the archiver and of a producer, served on their {@code --http-port}. */
package io.tailstream.cli.metrics;
