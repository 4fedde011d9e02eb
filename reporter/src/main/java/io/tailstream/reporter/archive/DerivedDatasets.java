package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveRows.RunRow;
import io.tailstream.reporter.archive.ArchiveRows.StepRow;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.ControlEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * Rebuilds a run's derived datasets from the run's archived source files, after a flush wrote some of them: one
 * file per run, named after the dataset and replaced whole. {@code steps} and {@code runs} come from the run's
 * {@code control} events ({@link ControlProjection}); {@code stalls}, {@code summaries} and {@code run_summaries}
 * keep the last record per key of {@code stall_events}, {@code summary_events} and {@code run_summary_events}, read
 * back with DuckDB.
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class DerivedDatasets {

    private final Path archiveDir;
    private final DatasetFiles files;
    private final ArchiveDuckDb duckdb;
    /** Per run, its control events as the derived steps and runs datasets need them. */
    private final Map<String, ControlHistory> controlHistories = new HashMap<>();

    DerivedDatasets(Path archiveDir, DatasetFiles files, ArchiveDuckDb duckdb) {
        this.archiveDir = archiveDir;
        this.files = files;
        this.duckdb = duckdb;
    }

    /**
     * Recomputes a run's {@code steps} and {@code runs} files from all of its archived control events (those
     * archived since the last rebuild read, the others kept by the run's {@link ControlHistory}).
     *
     * @param source the partition whose flush triggered the rebuild: tags the temporary file
     */
    void rebuildStepsAndRuns(String run, TopicPartition source) throws SQLException, IOException {
        List<ControlEvent> events = controlHistories.computeIfAbsent(run, r -> new ControlHistory())
                .update(duckdb.get(), ArchiveLayout.runDir(archiveDir, ArchiveLayout.CONTROL, run));
        List<StepRow> steps = ControlProjection.steps(events);
        if (!steps.isEmpty()) {
            files.write(ArchiveLayout.STEPS, files.target(ArchiveLayout.STEPS, run, "steps.parquet"), source,
                    Map.of(), ArchiveSchemas.STEPS, w -> steps.forEach(w::write));
        }
        Optional<RunRow> runRow = ControlProjection.run(events);
        if (runRow.isPresent()) {
            files.write(ArchiveLayout.RUNS, files.target(ArchiveLayout.RUNS, run, "runs.parquet"), source, Map.of(),
                    ArchiveSchemas.RUNS, w -> w.write(runRow.get()));
        }
    }

    /** Rewrites a run's {@code stalls} file: the last stall event per step, kind and start. */
    void rebuildStalls(String run, TopicPartition source) throws IOException {
        rebuildLastPerKey(run, source, ArchiveLayout.STALL_EVENTS, ArchiveLayout.STALLS, "step_id, kind, start_ms",
                "open, at_ms DESC, kafka_offset DESC");
    }

    /** Rewrites a run's {@code summaries} file: the last step summary per step and op. */
    void rebuildSummaries(String run, TopicPartition source) throws IOException {
        rebuildLastPerKey(run, source, ArchiveLayout.SUMMARY_EVENTS, ArchiveLayout.SUMMARIES, "step_id, op",
                "at_ms DESC, kafka_offset DESC");
    }

    /** Rewrites a run's {@code run_summaries} file: every row of the last run summary. */
    void rebuildRunSummaries(String run, TopicPartition source) throws IOException {
        // one record is many rows (all with the record's at_ms and offset): rank keeps every row of the last
        rebuildQualified(run, source, ArchiveLayout.RUN_SUMMARY_EVENTS, ArchiveLayout.RUN_SUMMARIES,
                "rank() OVER (ORDER BY at_ms DESC, kafka_offset DESC) = 1",
                "kind, target, workload, threads, op, round, basis, single_target, multi_target, single_threads");
    }

    /**
     * Rewrites a run's derived {@code dataset}/{@code dataset}.parquet from all its {@code source} files: the last
     * record per key (by {@code order}), without the Kafka coordinates, sorted by key.
     */
    private void rebuildLastPerKey(String run, TopicPartition tp, String source, String dataset, String key,
                                   String order) throws IOException {
        rebuildQualified(run, tp, source, dataset, "row_number() OVER (PARTITION BY " + key + " ORDER BY " + order
                + ") = 1", key);
    }

    /**
     * Rewrites a run's derived {@code dataset}/{@code dataset}.parquet from all its {@code source} files: the rows
     * for which {@code qualify} (a window predicate) holds, without the Kafka coordinates, sorted by {@code sortBy}.
     */
    private void rebuildQualified(String run, TopicPartition tp, String source, String dataset, String qualify,
                                  String sortBy) throws IOException {
        Path sourceDir = ArchiveLayout.runDir(archiveDir, source, run);
        String read = "read_parquet(" + ArchiveDatabase.sqlString(sourceDir.toAbsolutePath() + "/*.parquet")
                + ", hive_partitioning=false, union_by_name=true)";
        Path target = files.target(dataset, run, dataset + ".parquet");
        files.writeAtomically(dataset, target, tp, tmp -> {
            try (Statement st = duckdb.get().createStatement()) {
                return st.executeUpdate("COPY (SELECT * EXCLUDE (kafka_partition, kafka_offset) FROM " + read
                        + " QUALIFY " + qualify
                        + " ORDER BY " + sortBy + ") TO " + ArchiveDatabase.sqlString(tmp.toAbsolutePath().toString())
                        + " (FORMAT parquet, COMPRESSION zstd)");
            } catch (SQLException e) {
                throw new IOException("deriving " + target + " from " + sourceDir + ": " + e.getMessage(), e);
            }
        });
    }
}
