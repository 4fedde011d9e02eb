package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.reporter.parquet.ColumnFileWriter;
import io.tailstream.schemas.block.SampleStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleRowGroupEncoderTest {

    @TempDir
    Path dir;

    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void awaitWritten_afterARowGroupFailed_failsEveryLaterWaitAndSubmit() throws IOException {
        SampleRowGroupEncoder encoder = new SampleRowGroupEncoder(thread);
        ColumnFileWriter closed = SampleRowGroupEncoder.open(dir.resolve("a.parquet"), Map.of());
        closed.close(); // its page writers are gone: the row group cannot be written
        SampleColumns rows = encoder.takeBuffer();
        rows.add(1, rows.code("p"), 0, rows.code("op"), 10, 5, 10, SampleStatus.OK, 1, false, false);

        encoder.submit(closed, rows);

        assertThatThrownBy(encoder::awaitWritten).isInstanceOf(IOException.class).hasMessageContaining("a.parquet");
        // a row group of some file is missing: nothing written later may be published as if complete
        assertThatThrownBy(encoder::awaitWritten).isInstanceOf(IOException.class).hasMessageContaining("a.parquet");
        ColumnFileWriter other = SampleRowGroupEncoder.open(dir.resolve("b.parquet"), Map.of());
        SampleColumns more = encoder.takeBuffer();
        assertThat(more).as("the failed row group's buffer went back to the pool").isSameAs(rows);
        more.add(1, more.code("p"), 1, more.code("op"), 11, 5, 11, SampleStatus.OK, 1, false, false);
        assertThatThrownBy(() -> encoder.submit(other, more)).isInstanceOf(IOException.class);
        other.close();
    }
}
