/**
 * Archived results in other tools' formats: {@link io.tailstream.reporter.export.HistogramLogExport} writes a run's
 * latencies as an HdrHistogram interval log.
 */
package io.tailstream.reporter.export;
