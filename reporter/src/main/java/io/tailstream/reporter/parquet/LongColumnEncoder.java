package io.tailstream.reporter.parquet;

import java.io.IOException;
import java.util.function.IntToLongFunction;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes one INT32 or INT64 column chunk of a flat schema, page by page, from a primitive array read in a given row
 * order: no value object, no per-value virtual call into parquet-java's column writers.
 *
 * <p>Encodings, as parquet-java's v2 writer chooses them: with a dictionary, data pages are {@code RLE_DICTIONARY}
 * (a value repeated over a run of rows costs a few bytes whatever the run's length) and the dictionary page PLAIN;
 * the chunk falls back to {@code DELTA_BINARY_PACKED} when the first page shows the dictionary does not pay (ids and
 * dictionary at least as large as the plain values), and from the page on which the dictionary would pass 1 MiB.
 * Without a dictionary every page is {@code DELTA_BINARY_PACKED}, the encoding for time-sorted timestamps.
 *
 * <p>Reusable across chunks, not thread safe.
 */
public final class LongColumnEncoder {

    private final ColumnDescriptor column;
    private final PrimitiveType type;
    private final boolean int32;
    private final boolean optional;
    private final boolean dictionaryFirst;
    private final int valueBytes;
    private final LongDictionary dictionary = new LongDictionary();
    private final long[] pageValues = new long[Pages.ROWS];
    private final int[] pageIds = new int[Pages.ROWS];
    private final int[] levelScratch = new int[Pages.ROWS];
    private final RleHybridEncoder rle = new RleHybridEncoder();
    private final ValuesWriter delta;
    /** Chunk state: whether pages are still dictionary encoded, and how many dictionary entries they use. */
    private boolean dictionaryOn;
    private boolean firstPage;
    private int dictionaryEntries;

    /**
     * @param column     an INT32 or INT64 column of a flat schema (required or optional)
     * @param dictionary dictionary encoding first (else delta only)
     */
    public LongColumnEncoder(ColumnDescriptor column, boolean dictionary) {
        this.column = column;
        this.type = column.getPrimitiveType();
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        if (physical != PrimitiveTypeName.INT32 && physical != PrimitiveTypeName.INT64) {
            throw new IllegalArgumentException("column " + column + " is " + physical + ", not INT32 or INT64");
        }
        if (column.getMaxRepetitionLevel() != 0 || column.getMaxDefinitionLevel() > 1) {
            throw new IllegalArgumentException("column " + column + " is not a column of a flat schema");
        }
        this.int32 = physical == PrimitiveTypeName.INT32;
        this.optional = column.getMaxDefinitionLevel() == 1;
        this.dictionaryFirst = dictionary;
        this.valueBytes = int32 ? Integer.BYTES : Long.BYTES;
        int pageBytes = Pages.ROWS * valueBytes;
        this.delta = int32
                ? new DeltaBinaryPackingValuesWriterForInteger(Pages.slabBytes(), pageBytes, Pages.heap())
                : new DeltaBinaryPackingValuesWriterForLong(Pages.slabBytes(), pageBytes, Pages.heap());
    }

    /**
     * Writes the chunk of rows {@code order[0..rows)}: row {@code k} is {@code values[order[k]]}, null where
     * {@code present[order[k]]} is false ({@code present} may be null when every row has a value; a required column
     * must have one in every row).
     */
    public void write(PageWriter out, long[] values, boolean[] present, int[] order, int rows) throws IOException {
        write(out, i -> values[i], present, order, rows);
    }

    /** {@link #write(PageWriter, long[], boolean[], int[], int)} from an {@code int} array. */
    public void write(PageWriter out, int[] values, boolean[] present, int[] order, int rows) throws IOException {
        write(out, i -> values[i], present, order, rows);
    }

    private void write(PageWriter out, IntToLongFunction values, boolean[] present, int[] order, int rows)
            throws IOException {
        if (present != null && !optional) {
            throw new IllegalArgumentException("column " + column + " is required: it has a value in every row");
        }
        startChunk();
        for (int first = 0; first < rows; first += Pages.ROWS) {
            int pageRows = Math.min(Pages.ROWS, rows - first);
            int count = 0;
            for (int k = first; k < first + pageRows; k++) {
                int i = order[k];
                if (present == null || present[i]) {
                    pageValues[count++] = values.applyAsLong(i);
                }
            }
            writePage(out, present, order, first, pageRows, count);
        }
        endChunk(out);
    }

    private void startChunk() {
        dictionary.clear();
        dictionaryOn = dictionaryFirst;
        firstPage = true;
        dictionaryEntries = 0;
    }

    private void writePage(PageWriter out, boolean[] present, int[] order, int first, int pageRows, int count)
            throws IOException {
        Statistics<?> stats = statistics(count, pageRows - count);
        BytesInput levels = optional ? Pages.definitionLevels(rle, levelScratch, present, order, first,
                pageRows) : BytesInput.empty();
        boolean wasFirst = firstPage;
        firstPage = false;
        if (dictionaryOn) {
            int before = dictionary.size();
            long previous = 0;
            int previousId = -1;
            for (int k = 0; k < count; k++) {
                long v = pageValues[k];
                if (previousId < 0 || v != previous) {
                    previousId = dictionary.idOf(v);
                    previous = v;
                }
                pageIds[k] = previousId;
            }
            long dictionaryBytes = (long) dictionary.size() * valueBytes;
            if (dictionaryBytes > Pages.MAX_DICTIONARY_BYTES) {
                dictionaryOn = false;
                dictionaryEntries = before; // this page's new entries are used by no page
            } else {
                BytesInput ids = Pages.dictionaryIds(rle, pageIds, count, dictionary.size());
                if (wasFirst && ids.size() + dictionaryBytes >= (long) count * valueBytes) {
                    dictionaryOn = false; // the dictionary does not pay: no page of the chunk uses it
                } else {
                    out.writePageV2(pageRows, pageRows - count, pageRows, BytesInput.empty(), levels,
                            Encoding.RLE_DICTIONARY, ids, stats);
                    dictionaryEntries = dictionary.size();
                    return;
                }
            }
        }
        delta.reset();
        for (int k = 0; k < count; k++) {
            if (int32) {
                delta.writeInteger((int) pageValues[k]);
            } else {
                delta.writeLong(pageValues[k]);
            }
        }
        out.writePageV2(pageRows, pageRows - count, pageRows, BytesInput.empty(), levels,
                Encoding.DELTA_BINARY_PACKED, BytesInput.from(delta.getBytes().toByteArray()), stats);
    }

    private Statistics<?> statistics(int count, int nulls) {
        Statistics<?> stats = Statistics.createStats(type);
        if (count > 0) {
            long min = pageValues[0];
            long max = min;
            for (int k = 1; k < count; k++) {
                long v = pageValues[k];
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            if (int32) {
                stats.updateStats((int) min);
                stats.updateStats((int) max);
            } else {
                stats.updateStats(min);
                stats.updateStats(max);
            }
        }
        stats.incrementNumNulls(nulls);
        return stats;
    }

    private void endChunk(PageWriter out) throws IOException {
        if (dictionaryEntries > 0) {
            out.writeDictionaryPage(new DictionaryPage(BytesInput.from(dictionary.plain(dictionaryEntries, int32)),
                    dictionaryEntries, Encoding.PLAIN));
        }
    }
}
