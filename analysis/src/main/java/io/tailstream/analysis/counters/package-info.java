/**
 * What the database server's own counters did around a stall: which of them moved beyond their variation before it
 * ({@link io.tailstream.analysis.counters.StallExplanation}).
 */
package io.tailstream.analysis.counters;
