/**
 * Parquet writing without Hadoop at run time.
 *
 * <p>{@link io.tailstream.reporter.parquet.TableSchema} declares a flat table (column names, types, how each value
 * is read from a row object, and which columns are time-sorted); {@link
 * io.tailstream.reporter.parquet.ParquetTableWriter} writes it to a local file with parquet-java's
 * {@code LocalOutputFile}, {@code PlainParquetConfiguration} and {@link
 * io.tailstream.reporter.parquet.HadoopFreeCodecFactory} (zstd-jni called directly: parquet-java's own codec
 * factory links Hadoop classes). Hadoop's {@code hadoop-client-api} is a {@code provided} dependency, needed only
 * to compile against parquet-java's overloads; {@code HadoopFreeWriterIntegrationTest} runs the writer in a JVM without it.
 *
 * <p>File format: Parquet format v2 data pages, ZSTD level 3, dictionary + RLE for every column except those
 * declared sorted, which fall back to DELTA_BINARY_PACKED. Reading is left to DuckDB (parquet-java's reader still
 * needs Hadoop).
 */
package io.tailstream.reporter.parquet;
