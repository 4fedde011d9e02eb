/**
 * Time as the producer reads it, behind {@link io.tailstream.producer.time.Clock} so tests can drive it: a monotonic
 * nanosecond clock for latencies and an epoch-microsecond clock for timestamps.
 */
package io.tailstream.producer.time;
