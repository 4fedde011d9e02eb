/**
 * JMH benchmarks of tailstream's hot paths and the end-to-end emission benchmarks. Each class's Javadoc says how to
 * run it; the normal build compiles them and runs none.
 *
 * <p>The end-to-end benchmarks of the other stages sit in the packages of the code they measure, so they can use its
 * package-private parts and the test fixtures of its module's test-jar: {@code io.tailstream.aggregator.bench}
 * ({@code AggregateBench}), {@code io.tailstream.aggregator.topology} ({@code StageOneBench}),
 * {@code io.tailstream.reporter.archive} ({@code ArchiveBenchmarkMain}), {@code io.tailstream.reporter.query}
 * ({@code QueryBenchmarkMain}) and {@code io.tailstream.reporter.report} ({@code SoakArchiveMain},
 * {@code PolarDbEvaluationMain}). Every benchmark reads CPU time through {@link io.tailstream.benchmarks.CpuSnapshot}.
 * Figures are in {@code docs/benchmarks.md}.
 */
package io.tailstream.benchmarks;
