/**
 * Sample emission. Workers write samples into their own {@link io.tailstream.producer.emit.SampleWriter} (a
 * {@link io.tailstream.schemas.block.SampleBlockEncoder} per worker: no allocation, lock or atomic instruction per
 * sample); full or aged blocks go to one emitter thread through a lock-free queue, which numbers, seals and sends
 * them, adds heartbeats and end-of-step markers, and counts what Kafka acknowledged. {@link
 * io.tailstream.producer.emit.SampleSink#noop} turns emission off, for measuring its cost.
 */
package io.tailstream.producer.emit;
