/**
 * Confidence intervals of relative differences ({@link io.tailstream.analysis.interval.PercentInterval}): Fieller's
 * interval for a ratio of two independent means.
 */
package io.tailstream.analysis.interval;
