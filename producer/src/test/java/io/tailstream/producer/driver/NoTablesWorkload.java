package io.tailstream.producer.driver;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.Workload;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** A test workload without tables: one op, no options, nothing to prepare or clean up. */
interface NoTablesWorkload extends Workload {

    @Override
    default List<String> ops() {
        return List.of("txn");
    }

    @Override
    default Map<String, String> options() {
        return Map.of();
    }

    @Override
    default String dataSetKey() {
        return "none";
    }

    @Override
    default void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress,
                         LoadProgress rows) {
        // no tables
    }

    @Override
    default long rowsToLoad() {
        return 0;
    }

    @Override
    default void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) {
        // no tables
    }
}
