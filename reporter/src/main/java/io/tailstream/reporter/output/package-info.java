/**
 * The one output layer of the command-line tools: {@link io.tailstream.reporter.output.TableFormat} prints rows as
 * an aligned text table, RFC 4180 CSV or JSON (through Jackson's streaming generator), for {@code query},
 * {@code runs} and {@code compare}; {@link io.tailstream.reporter.output.Csv} is the one CSV encoder, also used by
 * {@code report --format csv}; {@link io.tailstream.reporter.output.Values} the one text form of a value.
 */
package io.tailstream.reporter.output;
