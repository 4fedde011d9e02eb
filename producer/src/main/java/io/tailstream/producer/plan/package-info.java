/**
 * Plan files: a whole evaluation in YAML ({@link io.tailstream.producer.plan.PlanFile}), read into a
 * {@link io.tailstream.producer.RunPlan} with errors that name the file, line, field and value
 * ({@link io.tailstream.producer.plan.PlanException}); the duration and thread-sweep syntaxes shared with the
 * command line ({@link io.tailstream.producer.plan.Durations}, {@link io.tailstream.producer.plan.ThreadSweep}).
 * The file's syntax is bound by Jackson to a {@code Root} and one class per kind of entry ({@code TargetEntry},
 * {@code WorkloadEntry}, {@code PlateauEntry}, ...), each checking its own values as they are read.
 */
package io.tailstream.producer.plan;
