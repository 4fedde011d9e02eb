/**
 * Confidence intervals of relative differences ({@link io.tailstream.analysis.interval.PercentInterval}): Fieller's
 * interval for a ratio of two independent means, and the moving block bootstrap for figures of autocorrelated series
 * ({@link io.tailstream.analysis.interval.BlockBootstrap}).
 */
package io.tailstream.analysis.interval;
