package io.tailstream.reporter.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes one required string (BYTE_ARRAY) column chunk of a flat schema, page by page, from an array of strings
 * read in a given row order. Made for columns of few distinct values that repeat over runs of rows (names, labels):
 * a string is looked up only where the row's string is not the previous row's instance, and turned into bytes once
 * per distinct value.
 *
 * <p>Encodings: {@code RLE_DICTIONARY} data pages and a PLAIN dictionary page; from the page on which the
 * dictionary would pass 1 MiB, PLAIN data pages.
 *
 * <p>Reusable across chunks, not thread safe.
 */
public final class StringColumnEncoder {

    /** Up to this many entries a look-up scans them by identity, then by equality; beyond, a hash map. */
    private static final int SCANNED_ENTRIES = 16;

    private final ColumnDescriptor column;
    private final List<String> entries = new ArrayList<>();
    private final List<Binary> entryBytes = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private final int[] pageIds = new int[Pages.ROWS];
    /** Per dictionary id, the last page whose statistics include it: each distinct value is compared once a page. */
    private int[] statsPage = new int[16];
    private int page;
    private final RleHybridEncoder rle = new RleHybridEncoder();
    private final PlainValuesWriter plain;
    private long dictionaryBytes;
    private boolean dictionaryOn;
    private int dictionaryEntries;

    public StringColumnEncoder(ColumnDescriptor column) {
        PrimitiveTypeName physical = column.getPrimitiveType().getPrimitiveTypeName();
        if (physical != PrimitiveTypeName.BINARY || column.getMaxDefinitionLevel() != 0
                || column.getMaxRepetitionLevel() != 0) {
            throw new IllegalArgumentException("column " + column + " is not a required BYTE_ARRAY column of a flat"
                    + " schema");
        }
        this.column = column;
        this.plain = new PlainValuesWriter(Pages.slabBytes(), Pages.MAX_DICTIONARY_BYTES, Pages.heap());
    }

    /** Writes the chunk of rows {@code order[0..rows)}: row {@code k} is {@code values[order[k]]} (never null). */
    public void write(PageWriter out, String[] values, int[] order, int rows) throws IOException {
        entries.clear();
        entryBytes.clear();
        page = 0;
        ids.clear();
        dictionaryBytes = 0;
        dictionaryOn = true;
        dictionaryEntries = 0;
        for (int first = 0; first < rows; first += Pages.ROWS) {
            int pageRows = Math.min(Pages.ROWS, rows - first);
            writePage(out, values, order, first, pageRows);
        }
        if (dictionaryEntries > 0) {
            out.writeDictionaryPage(new DictionaryPage(BytesInput.from(plainDictionary()), dictionaryEntries,
                    Encoding.PLAIN));
        }
    }

    private void writePage(PageWriter out, String[] values, int[] order, int first, int pageRows)
            throws IOException {
        Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
        page++;
        int before = entries.size();
        String previous = null;
        int previousId = -1;
        for (int k = 0; k < pageRows; k++) {
            String s = values[order[first + k]];
            if (s != previous) {
                if (s == null) {
                    throw new IllegalArgumentException("column " + column + " is required, row " + (first + k)
                            + " is null");
                }
                previousId = idOf(s);
                previous = s;
                if (statsPage[previousId] != page) {
                    statsPage[previousId] = page;
                    stats.updateStats(entryBytes.get(previousId));
                }
            }
            pageIds[k] = previousId;
        }
        if (dictionaryOn && dictionaryBytes > Pages.MAX_DICTIONARY_BYTES) {
            dictionaryOn = false;
            dictionaryEntries = before;
        }
        if (dictionaryOn) {
            out.writePageV2(pageRows, 0, pageRows, BytesInput.empty(), BytesInput.empty(), Encoding.RLE_DICTIONARY,
                    Pages.dictionaryIds(rle, pageIds, pageRows, entries.size()), stats);
            dictionaryEntries = entries.size();
            return;
        }
        plain.reset();
        for (int k = 0; k < pageRows; k++) {
            plain.writeBytes(entryBytes.get(pageIds[k]));
        }
        out.writePageV2(pageRows, 0, pageRows, BytesInput.empty(), BytesInput.empty(), Encoding.PLAIN,
                BytesInput.from(plain.getBytes().toByteArray()), stats);
    }

    private int idOf(String s) {
        if (entries.size() <= SCANNED_ENTRIES) {
            for (int id = 0; id < entries.size(); id++) {
                if (entries.get(id) == s) {
                    return id;
                }
            }
            for (int id = 0; id < entries.size(); id++) {
                if (entries.get(id).equals(s)) {
                    return id;
                }
            }
        } else {
            Integer id = ids.get(s);
            if (id != null) {
                return id;
            }
        }
        int id = entries.size();
        Binary bytes = Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
        entries.add(s);
        entryBytes.add(bytes);
        ids.put(s, id);
        if (id == statsPage.length) {
            statsPage = Arrays.copyOf(statsPage, id * 2);
        }
        statsPage[id] = 0;
        dictionaryBytes += Integer.BYTES + bytes.length();
        return id;
    }

    /** The dictionary entries in PLAIN encoding: each a little-endian 4-byte length, then its bytes. */
    private byte[] plainDictionary() {
        int size = 0;
        for (int id = 0; id < dictionaryEntries; id++) {
            size += Integer.BYTES + entryBytes.get(id).length();
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (int id = 0; id < dictionaryEntries; id++) {
            byte[] b = entryBytes.get(id).getBytesUnsafe();
            out.putInt(b.length).put(b);
        }
        return out.array();
    }
}
