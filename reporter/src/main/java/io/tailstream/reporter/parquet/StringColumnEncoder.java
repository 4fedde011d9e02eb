package io.tailstream.reporter.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * Writes one required string (BYTE_ARRAY) column chunk of a flat schema, page by page, from string codes (indices
 * into a table of distinct strings) read in a given row order. Made for columns of few distinct values that repeat
 * over runs of rows (names, labels): a code is mapped to its dictionary id only where it differs from the previous
 * row's, and each string is turned into bytes once per chunk.
 *
 * <p>Encodings: {@code RLE_DICTIONARY} data pages and a PLAIN dictionary page; from the page on which the
 * dictionary would pass 1 MiB, PLAIN data pages.
 *
 * <p>Reusable across chunks, not thread safe.
 */
public final class StringColumnEncoder {

    private final ColumnDescriptor column;
    private final List<Binary> entryBytes = new ArrayList<>();
    /** Per code, its dictionary id + 1 in this chunk (0: not seen yet). */
    private int[] idOfCode = new int[16];
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

    /**
     * Writes the chunk of rows {@code order[0..rows)}: row {@code k} is {@code names[codes[order[k]]]}, which must
     * not be null. Distinct codes must stand for distinct strings.
     */
    public void write(PageWriter out, int[] codes, String[] names, int[] order, int rows) throws IOException {
        entryBytes.clear();
        if (idOfCode.length < names.length) {
            idOfCode = new int[names.length];
        }
        Arrays.fill(idOfCode, 0);
        page = 0;
        dictionaryBytes = 0;
        dictionaryOn = true;
        dictionaryEntries = 0;
        for (int first = 0; first < rows; first += Pages.ROWS) {
            int pageRows = Math.min(Pages.ROWS, rows - first);
            writePage(out, codes, names, order, first, pageRows);
        }
        if (dictionaryEntries > 0) {
            out.writeDictionaryPage(new DictionaryPage(BytesInput.from(plainDictionary()), dictionaryEntries,
                    Encoding.PLAIN));
        }
    }

    private void writePage(PageWriter out, int[] codes, String[] names, int[] order, int first, int pageRows)
            throws IOException {
        Statistics<?> stats = Statistics.createStats(column.getPrimitiveType());
        page++;
        int before = entryBytes.size();
        int previousCode = -1;
        int previousId = -1;
        for (int k = 0; k < pageRows; k++) {
            int code = codes[order[first + k]];
            if (code != previousCode) {
                previousCode = code;
                previousId = idOfCode[code] - 1;
                if (previousId < 0) {
                    previousId = add(code, names);
                }
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
                    Pages.dictionaryIds(rle, pageIds, pageRows, entryBytes.size()), stats);
            dictionaryEntries = entryBytes.size();
            return;
        }
        plain.reset();
        for (int k = 0; k < pageRows; k++) {
            plain.writeBytes(entryBytes.get(pageIds[k]));
        }
        out.writePageV2(pageRows, 0, pageRows, BytesInput.empty(), BytesInput.empty(), Encoding.PLAIN,
                BytesInput.from(plain.getBytes().toByteArray()), stats);
    }

    private int add(int code, String[] names) {
        String s = names[code];
        if (s == null) {
            throw new IllegalArgumentException("column " + column + " is required, code " + code + " has no string");
        }
        int id = entryBytes.size();
        Binary bytes = Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
        entryBytes.add(bytes);
        idOfCode[code] = id + 1;
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
