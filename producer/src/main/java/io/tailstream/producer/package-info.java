/**
 * The producer's API for the launcher: {@link io.tailstream.producer.BenchmarkRunner} runs a
 * {@link io.tailstream.producer.RunPlan} (targets x workloads x thread counts x rounds), emitting every sample and
 * control event, and returns a {@link io.tailstream.producer.RunResult}; a {@link io.tailstream.producer.KafkaEmission}
 * says how a run's samples reach Kafka, and {@link io.tailstream.producer.WorkloadData} prepares and cleans up
 * workload data on its own.
 */
package io.tailstream.producer;
