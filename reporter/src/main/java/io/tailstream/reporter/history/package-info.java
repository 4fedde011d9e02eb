/**
 * History over the archive: archived steps grouped into series of comparable runs ({@link
 * io.tailstream.reporter.history.SeriesKey}), each run's value of a {@link io.tailstream.reporter.history.Metric},
 * what it ran on ({@link io.tailstream.reporter.history.Fingerprint}), and the change points of each series with
 * their confidence intervals and the fingerprint attributes that changed ({@link
 * io.tailstream.reporter.history.TrendQuery}).
 */
package io.tailstream.reporter.history;
