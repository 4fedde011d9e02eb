/**
 * How {@code run} and {@code demo} run in this process: the local pipeline (a broker beside the load, the aggregator
 * after it, the archive and the report), a graceful stop on Ctrl-C, and the steps as JSON.
 */
package io.tailstream.cli.run;
