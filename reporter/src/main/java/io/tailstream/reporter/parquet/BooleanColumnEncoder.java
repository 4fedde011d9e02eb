package io.tailstream.reporter.parquet;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
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
    private final RleHybridEncoder rle = new RleHybridEncoder();
    private final int[] pageValues = new int[Pages.ROWS];

    public BooleanColumnEncoder(ColumnDescriptor column) {
        if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BOOLEAN
                || column.getMaxDefinitionLevel() != 0 || column.getMaxRepetitionLevel() != 0) {
            throw new IllegalArgumentException("column " + column + " is not a required BOOLEAN column of a flat"
                    + " schema");
        }
        this.column = column;
    }

    /** Writes the chunk of rows {@code order[0..rows)}: row {@code k} is {@code values[order[k]]}. */
    public void write(PageWriter out, boolean[] values, int[] order, int rows) throws IOException {
        for (int first = 0; first < rows; first += Pages.ROWS) {
            int pageRows = Math.min(Pages.ROWS, rows - first);
            int trues = 0;
            for (int k = 0; k < pageRows; k++) {
                int v = values[order[first + k]] ? 1 : 0;
                pageValues[k] = v;
                trues += v;
            }
            Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
            if (trues < pageRows) {
                stats.updateStats(false);
            }
            if (trues > 0) {
                stats.updateStats(true);
            }
            out.writePageV2(pageRows, 0, pageRows, BytesInput.empty(), BytesInput.empty(), Encoding.RLE,
                    Pages.booleans(rle, pageValues, pageRows), stats);
        }
    }
}
