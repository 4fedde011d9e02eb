/**
 * The rules results are judged by, each in one place: where a concurrency sweep reached its plateau
 * ({@link io.tailstream.analysis.Plateau}), its peak ({@link io.tailstream.analysis.SweepPeak}), which targets a
 * scale-out comparison pairs ({@link io.tailstream.analysis.ScaleOut}), a figure's statistics over rounds
 * ({@link io.tailstream.analysis.RoundStats}) and the percent change against a base
 * ({@link io.tailstream.analysis.PercentChange}). The producer, the aggregator and the reporter all apply these, so
 * the sweep stop, the run summary and the report agree by construction. The statistics over history are here too:
 * change points in a series of runs ({@code change}) and confidence intervals of differences ({@code interval}).
 * Pure functions over plain values: no I/O; one library, for the t distribution.
 */
package io.tailstream.analysis;
