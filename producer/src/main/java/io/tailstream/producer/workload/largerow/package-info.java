/**
 * The large-row insert workload for write-stall soaks: many tables, large incompressible values, a random key under
 * a secondary index on every row.
 */
package io.tailstream.producer.workload.largerow;
