/**
 * The archive: Kafka topics to hive-partitioned Parquet datasets, exactly once.
 *
 * <h2>Entry points</h2>
 * {@link io.tailstream.reporter.archive.Archiver#archiveUntilCaughtUp(String, java.nio.file.Path)} (batch: from the
 * committed offsets to the end offsets seen at start) and {@link io.tailstream.reporter.archive.Archiver#runUntilClosed()}
 * (continuous, rolling files every {@code rollInterval} or {@code rollRows}). Both return an
 * {@link io.tailstream.reporter.archive.ArchiveSummary} including a block-sequence check
 * ({@link io.tailstream.reporter.archive.ArchiveVerifier}).
 *
 * <h2>Layout</h2>
 * <pre>
 * ARCHIVE/&lt;dataset&gt;/run_id=&lt;run id&gt;/&lt;topic&gt;-p&lt;partition&gt;-&lt;first offset&gt;-&lt;last offset&gt;.parquet
 * ARCHIVE/steps/run_id=&lt;run id&gt;/steps.parquet
 * ARCHIVE/runs/run_id=&lt;run id&gt;/runs.parquet
 * </pre>
 * Every dataset is partitioned hive-style by {@code run_id}; {@code run_id} is never a column inside the files
 * (readers add it from the path; DuckDB would let the path win over a same-named column anyway). Read it with
 * DuckDB: {@code SELECT * FROM read_parquet('ARCHIVE/samples/*}{@code /*.parquet', hive_partitioning=true)}, with
 * pandas/pyarrow: {@code pd.read_parquet('ARCHIVE/samples')}, with Spark: {@code spark.read.parquet('ARCHIVE/samples')}.
 * Times are integers: {@code *_us} microseconds and {@code *_ms} milliseconds since the Unix epoch (UTC);
 * durations {@code *_us}/{@code *_ms} likewise. Files are ZSTD-compressed Parquet v2; within each row group of a
 * samples file rows are sorted by {@code start_us} (a default-sized file is one row group). Samples go from decoded
 * blocks into primitive column buffers and from there, one row group at a time, straight into Parquet column
 * writers ({@code SampleFile}), so memory is bounded by the row group
 * ({@link io.tailstream.reporter.archive.ArchiverConfig#rowGroupRows()}).
 *
 * <h2>Datasets and columns</h2>
 * Defined once, in {@code ArchiveSchemas} (one {@code TableSchema} per dataset: column names, Parquet types, how
 * each is read from its row); described for users, dataset by dataset, in docs/archive.md, which
 * {@code ArchiveColumnsDocumentedTest} holds to the schemas: every column is named in its dataset's section.
 *
 * <h2>Exactly once</h2>
 * See {@link io.tailstream.reporter.archive.Archiver}: atomic rename of files named by offset range, derived
 * files recomputed from the whole control dataset, offsets committed last, replay at the same boundaries after a
 * crash (of the files of the same {@code TopicIncarnation} only); several archivers of one consumer group share
 * the partitions, a partition's files and offsets handed over in the group's rebalances.
 */
package io.tailstream.reporter.archive;
