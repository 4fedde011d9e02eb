package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.parquet.TableSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The archive's columns are defined once, in {@link ArchiveSchemas}, and described for users in docs/archive.md:
 * every column of every dataset must be named (as {@code `column`}) in that dataset's section of the page, so a
 * column added to a schema cannot ship undocumented.
 */
class ArchiveColumnsDocumentedTest {

    private static final Pattern SECTION = Pattern.compile("(?m)^### (.+)$");
    private static final Pattern NAME = Pattern.compile("`([a-z0-9_]+)`");

    @Test
    void everySchemaColumn_isNamedInItsDatasetsSection() throws IOException {
        Map<String, Set<String>> documented = sections(Files.readString(docs()));
        List<TableSchema<?>> schemas = List.of(ArchiveSchemas.SAMPLES, ArchiveSchemas.BLOCKS, ArchiveSchemas.WINDOWS,
                ArchiveSchemas.CONTROL, ArchiveSchemas.STEPS, ArchiveSchemas.RUNS, ArchiveSchemas.CLIENT_HEALTH,
                ArchiveSchemas.STALL_EVENTS, ArchiveSchemas.SUMMARY_EVENTS, ArchiveSchemas.RUN_SUMMARY_EVENTS);
        for (TableSchema<?> schema : schemas) {
            String dataset = schema.messageType().getName();
            assertThat(documented).as("a section of docs/archive.md for dataset %s", dataset).containsKey(dataset);
            Set<String> missing = new TreeSet<>(schema.columnNames());
            missing.removeAll(documented.get(dataset));
            assertThat(missing).as("columns of %s not named in its section of docs/archive.md", dataset).isEmpty();
        }
    }

    /** Names in backquotes per dataset; a section "### a and b" documents both datasets. */
    private static Map<String, Set<String>> sections(String page) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        Matcher m = SECTION.matcher(page);
        int start = -1;
        List<String> datasets = List.of();
        while (true) {
            boolean found = m.find();
            if (start >= 0) {
                String body = page.substring(start, found ? m.start() : page.length());
                Set<String> names = new TreeSet<>();
                Matcher n = NAME.matcher(body);
                while (n.find()) {
                    names.add(n.group(1));
                }
                datasets.forEach(d -> out.computeIfAbsent(d, k -> new TreeSet<>()).addAll(names));
            }
            if (!found) {
                return out;
            }
            start = m.end();
            datasets = List.of(m.group(1).replace("`", "").split("\\s+and\\s+|,\\s*"));
        }
    }

    private static Path docs() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/archive.md"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("docs/archive.md above %s", Path.of("").toAbsolutePath()).isNotNull();
        return dir.resolve("docs/archive.md");
    }
}
