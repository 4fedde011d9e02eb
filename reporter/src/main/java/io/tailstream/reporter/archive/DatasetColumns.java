package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.TableSchema;
import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The documented columns of every archive dataset, as the archiver writes them today, with their SQL types: what a
 * reader may rely on whichever archiver version wrote the files, or whether any file of the dataset exists. The
 * derived datasets ({@code stalls}, {@code summaries}, {@code run_summaries}) have their source's columns without
 * the Kafka coordinates. {@code run_id} is not among them: it is the hive partition key. Stateless and thread safe.
 */
public final class DatasetColumns {

    /**
     * A column and its DuckDB type ({@code INTEGER}, {@code BIGINT}, {@code DOUBLE}, {@code BOOLEAN}, {@code VARCHAR}).
     */
    public record Column(String name, String sqlType) {}

    private static final List<String> KAFKA_COORDINATES = List.of("kafka_partition", "kafka_offset");

    private DatasetColumns() {}

    /**
     * The dataset's columns in file order.
     *
     * @throws IllegalArgumentException for a name that is not one of {@link ArchiveLayout#DATASETS}
     */
    public static List<Column> of(String dataset) {
        return switch (dataset) {
            case ArchiveLayout.SAMPLES -> columns(ArchiveSchemas.SAMPLES, false);
            case ArchiveLayout.BLOCKS -> columns(ArchiveSchemas.BLOCKS, false);
            case ArchiveLayout.WINDOWS -> columns(ArchiveSchemas.WINDOWS, false);
            case ArchiveLayout.CONTROL -> columns(ArchiveSchemas.CONTROL, false);
            case ArchiveLayout.STEPS -> columns(ArchiveSchemas.STEPS, false);
            case ArchiveLayout.RUNS -> columns(ArchiveSchemas.RUNS, false);
            case ArchiveLayout.CLIENT_HEALTH -> columns(ArchiveSchemas.CLIENT_HEALTH, false);
            case ArchiveLayout.SERVER_COUNTERS -> columns(ArchiveSchemas.SERVER_COUNTERS, false);
            case ArchiveLayout.STALL_EVENTS -> columns(ArchiveSchemas.STALL_EVENTS, false);
            case ArchiveLayout.STALLS -> columns(ArchiveSchemas.STALL_EVENTS, true);
            case ArchiveLayout.SUMMARY_EVENTS -> columns(ArchiveSchemas.SUMMARY_EVENTS, false);
            case ArchiveLayout.SUMMARIES -> columns(ArchiveSchemas.SUMMARY_EVENTS, true);
            case ArchiveLayout.RUN_SUMMARY_EVENTS -> columns(ArchiveSchemas.RUN_SUMMARY_EVENTS, false);
            case ArchiveLayout.RUN_SUMMARIES -> columns(ArchiveSchemas.RUN_SUMMARY_EVENTS, true);
            default -> throw new IllegalArgumentException("no archive dataset named " + dataset + "; datasets: "
                    + ArchiveLayout.DATASETS);
        };
    }

    private static List<Column> columns(TableSchema<?> schema, boolean derived) {
        return schema.messageType().getFields().stream()
                .filter(f -> !derived || !KAFKA_COORDINATES.contains(f.getName()))
                .map(f -> new Column(f.getName(), sqlType(f)))
                .toList();
    }

    private static String sqlType(Type field) {
        PrimitiveType p = field.asPrimitiveType();
        return switch (p.getPrimitiveTypeName()) {
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case DOUBLE -> "DOUBLE";
            case BOOLEAN -> "BOOLEAN";
            case BINARY -> {
                if (!(p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
                    throw new IllegalStateException("column " + p.getName() + ": binary columns other than strings"
                            + " have no documented SQL type");
                }
                yield "VARCHAR";
            }
            default -> throw new IllegalStateException("column " + p.getName() + ": no SQL type for "
                    + p.getPrimitiveTypeName());
        };
    }
}
