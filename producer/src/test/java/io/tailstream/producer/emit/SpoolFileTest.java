package io.tailstream.producer.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolFileTest {

    @TempDir
    Path dir;

    @Test
    void appendThenRead_inOrder_truncatedWhenCaughtUp_deletedOnCloseWhenEmpty() {
        Path p = dir.resolve("s.bin");
        SpoolFile spool = new SpoolFile(p, 1 << 20);
        for (int i = 0; i < 100; i++) {
            spool.append(new SpoolFile.Entry(i % 3 == 0 ? null : i % 3, ("k" + i).getBytes(), new byte[] {(byte) i, 7}));
        }
        assertThat(spool.resetIfCaughtUp()).isFalse();
        for (int i = 0; i < 100; i++) {
            SpoolFile.Entry e = spool.next();
            assertThat(e.partition()).isEqualTo(i % 3 == 0 ? null : i % 3);
            assertThat(new String(e.key())).isEqualTo("k" + i);
            assertThat(e.block()).containsExactly((byte) i, 7);
        }
        assertThat(spool.next()).isNull();
        assertThat(spool.highWaterBytes()).isEqualTo(spool.bytesAppended()).isEqualTo(p.toFile().length());
        assertThat(spool.resetIfCaughtUp()).isTrue();
        assertThat(p.toFile().length()).isZero();
        spool.close();
        assertThat(p).doesNotExist();
    }

    @Test
    void interruptedCaller_appendsAndReads_fileStaysOpenForOthers_interruptKept() {
        Path p = dir.resolve("interrupted.bin");
        SpoolFile spool = new SpoolFile(p, 1 << 20);
        try {
            Thread.currentThread().interrupt(); // as the health sampler is when its step ends
            spool.append(new SpoolFile.Entry(null, "k".getBytes(), new byte[] {1, 2, 3}));
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt kept for the caller").isTrue();
            SpoolFile.Entry read = spool.next();
            assertThat(Thread.interrupted()).isTrue();
            assertThat(read.block()).containsExactly(1, 2, 3);
            spool.append(new SpoolFile.Entry(0, "k2".getBytes(), new byte[] {4})); // not closed for the next caller
            assertThat(spool.next().block()).containsExactly(4);
        } finally {
            Thread.interrupted();
            spool.close();
        }
    }

    @Test
    void limitReached_refusesWithFileAndLimit_andKeepsWhatItHas() {
        Path p = dir.resolve("s.bin");
        SpoolFile spool = new SpoolFile(p, 100);
        spool.append(new SpoolFile.Entry(null, new byte[10], new byte[50])); // 8 + 8 + 60 = 76 bytes
        assertThatThrownBy(() -> spool.append(new SpoolFile.Entry(null, new byte[10], new byte[50])))
                .isInstanceOf(EmitException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContaining("limit of 100 bytes (76 bytes held, 1 blocks spooled so far)")
                .hasMessageContaining("stopping the run rather than dropping samples");
        assertThat(spool.next().block()).hasSize(50);
        spool.close();
    }

    @Test
    void corruptRecord_isRefusedWithOffset_neverReplayed() throws Exception {
        Path p = dir.resolve("s.bin");
        SpoolFile spool = new SpoolFile(p, 1 << 20);
        spool.append(new SpoolFile.Entry(1, new byte[] {1}, new byte[] {1, 2, 3}));
        spool.append(new SpoolFile.Entry(1, new byte[] {1}, new byte[] {4, 5, 6}));
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {99}), 20 + 8 + 2); // records are 20 bytes: inside the second's payload
        }
        assertThat(spool.next().block()).containsExactly(1, 2, 3);
        assertThatThrownBy(spool::next).hasMessage("spool file " + p + " is corrupt at offset 20: checksum mismatch");
        spool.close();
        assertThat(p).exists(); // not empty: kept for inspection
    }
}
