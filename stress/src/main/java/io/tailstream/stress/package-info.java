/**
 * jcstress tests (OpenJDK's Java Concurrency Stress harness) of the one lock-free protocol of tailstream: a worker
 * thread appends samples to its {@link io.tailstream.schemas.block.SampleBlockEncoder} and publishes each with a
 * release store, while the emitter thread seals what was published
 * ({@link io.tailstream.schemas.block.SampleBlockEncoder#sealPublished}) with an acquire load, through buffer growth.
 * The harness runs the two actors concurrently millions of times under several JIT modes and counts every outcome;
 * a torn or stale sample is a forbidden outcome. {@code SampleHandOverStressIntegrationTest} runs them in the build;
 * {@code java -cp ... org.openjdk.jcstress.Main -t io.tailstream.stress} runs them longer ({@code -m tough}).
 */
package io.tailstream.stress;
