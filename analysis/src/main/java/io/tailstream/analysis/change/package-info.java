/**
 * Change points in a series of runs: {@link io.tailstream.analysis.change.ChangePointDetector} (E-Divisive means with
 * a t-test, after Apache Otava), its {@link io.tailstream.analysis.change.ChangePointSettings}, and each
 * {@link io.tailstream.analysis.change.ChangePoint} with the test of the segments on either side.
 */
package io.tailstream.analysis.change;
