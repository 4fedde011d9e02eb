package io.tailstream.reporter.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Table, CSV and JSON output of a query result, NULLs and quoting included. DOUBLEs print without trailing zeros,
 * DECIMALs with their scale (0.125 is a DECIMAL(4,3) literal in DuckDB).
 */
class TableFormatTest {

    private static final String SQL = "SELECT * FROM (VALUES (1, 'a,b', 2.5::DOUBLE, true), (22, 'say \"hi\"', NULL, false),"
            + " (333, NULL, 0.125, NULL)) t(n, s, d, b) ORDER BY n";

    private static String render(TableFormat f, int limit) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(SQL)) {
            StringWriter sb = new StringWriter();
            assertThat(f.write(rs, sb, limit)).isEqualTo(3);
            return sb.toString().replace(System.lineSeparator(), "\n");
        }
    }

    @Test
    void table_alignedNumbersRight_nullShown_rowCount() throws SQLException {
        assertThat(render(TableFormat.TABLE, 100)).isEqualTo("""
                  n  s             d  b
                ---  --------  -----  -----
                  1  a,b         2.5  true
                 22  say "hi"   NULL  false
                333  NULL      0.125  NULL
                (3 rows)
                """);
        assertThat(render(TableFormat.TABLE, 1)).endsWith("... 2 more rows (3 in all; --format csv or json prints"
                + " every row)\n");
    }

    @Test
    void csv_quotedWhereNeeded_emptyForNull() throws SQLException {
        assertThat(render(TableFormat.CSV, 0)).isEqualTo("n,s,d,b\r\n1,\"a,b\",2.5,true\r\n"
                + "22,\"say \"\"hi\"\"\",,false\r\n333,,0.125,\r\n");
    }

    @Test
    void json_arrayOfObjects_typedValues() throws SQLException {
        assertThat(render(TableFormat.JSON, 0)).isEqualTo("""
                [
                {"n":1,"s":"a,b","d":2.5,"b":true},
                {"n":22,"s":"say \\"hi\\"","d":null,"b":false},
                {"n":333,"s":null,"d":0.125,"b":null}
                ]
                """);
    }

    @Test
    void emptyResult_inEveryFormat() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (TableFormat f : TableFormat.values()) {
                try (ResultSet rs = st.executeQuery("SELECT 1 AS n WHERE false")) {
                    StringWriter sb = new StringWriter();
                    assertThat(f.write(rs, sb, 10)).isZero();
                    assertThat(sb.toString().replace(System.lineSeparator(), "\n")).isEqualTo(switch (f) {
                        case TABLE -> "n\n-\n(0 rows)\n";
                        case CSV -> "n\r\n";
                        case JSON -> "[]\n";
                    });
                }
            }
        }
    }

    /** Typed rows from code (compare, runs): small and large numbers in plain notation, NaN as a string. */
    @Test
    void rowsFromCode_numbersPlain_jsonValid() throws Exception {
        List<String> cols = List.of("name", "qps", "tiny", "count", "nan");
        List<Object> row = Arrays.asList("a\"b\nc", 1234.5, 0.00001, 12_345_678_901L, Double.NaN);
        StringWriter csv = new StringWriter();
        try (TableFormat.RowWriter w = TableFormat.CSV.open(csv, cols, 0)) {
            w.row(row);
        }
        assertThat(csv.toString()).isEqualTo("name,qps,tiny,count,nan\r\n\"a\"\"b\nc\",1234.5,0.00001,12345678901,NaN\r\n");
        StringWriter json = new StringWriter();
        try (TableFormat.RowWriter w = TableFormat.JSON.open(json, cols, 0)) {
            w.row(row);
            w.row(row);
        }
        JsonNode parsed = new ObjectMapper().readTree(json.toString());
        assertThat(parsed).hasSize(2);
        assertThat(parsed.get(1).get("name").asText()).isEqualTo("a\"b\nc");
        assertThat(parsed.get(1).get("tiny").decimalValue()).isEqualByComparingTo("0.00001");
        assertThat(parsed.get(1).get("count").longValue()).isEqualTo(12_345_678_901L);
        assertThat(parsed.get(1).get("nan").asText()).isEqualTo("NaN");
        assertThat(json.toString()).contains("\"tiny\":0.00001,");
    }

    @Test
    void parse() {
        assertThat(TableFormat.parse("Json")).isEqualTo(TableFormat.JSON);
        assertThatThrownBy(() -> TableFormat.parse("xml")).hasMessage("unknown format 'xml'; use table, csv or json");
    }
}
