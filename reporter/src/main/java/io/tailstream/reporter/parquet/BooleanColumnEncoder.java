package io.tailstream.reporter.parquet;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes one required BOOLEAN column chunk of a flat schema, page by page, from a {@code boolean} array read in a
 * given row order. Pages are {@code RLE} encoded, as parquet-java's v2 writer encodes booleans: a flag that holds
 * over a run of rows costs a few bytes.
 *
 * <p>Reusable across chunks, not thread safe.
 */
public final class BooleanColumnEncoder {

    private final ColumnDescriptor column;
    private final RunLengthBitPackingHybridValuesWriter rle;

    public BooleanColumnEncoder(ColumnDescriptor column) {
        if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BOOLEAN
                || column.getMaxDefinitionLevel() != 0 || column.getMaxRepetitionLevel() != 0) {
            throw new IllegalArgumentException("column " + column + " is not a required BOOLEAN column of a flat"
                    + " schema");
        }
        this.column = column;
        this.rle = new RunLengthBitPackingHybridValuesWriter(1, Pages.slabBytes(), Pages.ROWS / 8 + 16, Pages.heap());
    }

    /** Writes the chunk of rows {@code order[0..rows)}: row {@code k} is {@code values[order[k]]}. */
    public void write(PageWriter out, boolean[] values, int[] order, int rows) throws IOException {
        for (int first = 0; first < rows; first += Pages.ROWS) {
            int pageRows = Math.min(Pages.ROWS, rows - first);
            Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
            rle.reset();
            boolean seenTrue = false;
            boolean seenFalse = false;
            for (int k = first; k < first + pageRows; k++) {
                boolean v = values[order[k]];
                rle.writeBoolean(v);
                seenTrue |= v;
                seenFalse |= !v;
            }
            if (seenFalse) {
                stats.updateStats(false);
            }
            if (seenTrue) {
                stats.updateStats(true);
            }
            out.writePageV2(pageRows, 0, pageRows, BytesInput.empty(), BytesInput.empty(), Encoding.RLE,
                    BytesInput.from(rle.getBytes().toByteArray()), stats);
        }
    }
}
