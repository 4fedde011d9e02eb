package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Table, CSV and JSON output of a query result, NULLs and quoting included. DOUBLEs print without trailing zeros,
 * DECIMALs with their scale (0.125 is a DECIMAL(4,3) literal in DuckDB).
 */
class ResultFormatTest {

    private static final String SQL = "SELECT * FROM (VALUES (1, 'a,b', 2.5::DOUBLE, true), (22, 'say \"hi\"', NULL, false),"
            + " (333, NULL, 0.125, NULL)) t(n, s, d, b) ORDER BY n";

    private static String render(ResultFormat f, int limit) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(SQL)) {
            StringBuilder sb = new StringBuilder();
            assertThat(f.write(rs, sb, limit)).isEqualTo(3);
            return sb.toString().replace(System.lineSeparator(), "\n");
        }
    }

    @Test
    void table_alignedNumbersRight_nullShown_rowCount() throws SQLException {
        assertThat(render(ResultFormat.TABLE, 100)).isEqualTo("""
                  n  s             d  b
                ---  --------  -----  -----
                  1  a,b         2.5  true
                 22  say "hi"   NULL  false
                333  NULL      0.125  NULL
                (3 rows)
                """);
        assertThat(render(ResultFormat.TABLE, 1)).endsWith("... 2 more rows (3 in all; --format csv or json prints"
                + " every row)\n");
    }

    @Test
    void csv_quotedWhereNeeded_emptyForNull() throws SQLException {
        assertThat(render(ResultFormat.CSV, 0)).isEqualTo("n,s,d,b\r\n1,\"a,b\",2.5,true\r\n"
                + "22,\"say \"\"hi\"\"\",,false\r\n333,,0.125,\r\n");
    }

    @Test
    void json_arrayOfObjects_typedValues() throws SQLException {
        assertThat(render(ResultFormat.JSON, 0)).isEqualTo("""
                [
                {"n":1,"s":"a,b","d":2.5,"b":true},
                {"n":22,"s":"say \\"hi\\"","d":null,"b":false},
                {"n":333,"s":null,"d":0.125,"b":null}
                ]
                """);
    }

    @Test
    void parse() {
        assertThat(ResultFormat.parse("Json")).isEqualTo(ResultFormat.JSON);
        assertThatThrownBy(() -> ResultFormat.parse("xml")).hasMessage("unknown format 'xml'; use table, csv or json");
    }
}
