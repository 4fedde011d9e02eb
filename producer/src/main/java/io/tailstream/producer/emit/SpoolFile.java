package io.tailstream.producer.emit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * An append-only file of blocks waiting for the broker, read back in the order written. Each record is
 * {@code [int payloadLength][int crc32c(payload)][payload]} with {@code payload = [int partition or -1][int keyLength]
 * [key][block]}; a record whose checksum does not match is refused with the file and offset (never replayed
 * half-written). When the reader has caught up with the writer the file is truncated, so it only ever holds what is
 * still waiting. It is deleted on close when empty.
 *
 * <p>Thread safe (every method is synchronized).
 */
final class SpoolFile implements AutoCloseable {

    /** One spooled block. */
    record Entry(Integer partition, byte[] key, byte[] block) {
        int size() {
            return 16 + key.length + block.length;
        }
    }

    private final Path path;
    private final long limitBytes;
    private final FileChannel channel;
    private long writePos;
    private long readPos;
    private long recordsAppended;
    private long bytesAppended;
    private long highWaterBytes;

    /**
     * @param limitBytes most bytes the file may hold at once; an append beyond it fails with an
     *                   {@link EmitException} naming the file and the limit
     */
    SpoolFile(Path path, long limitBytes) {
        this.path = path;
        this.limitBytes = limitBytes;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the spool file " + path, e);
        }
    }

    Path path() {
        return path;
    }

    /** @throws EmitException if the record would take the file past its limit */
    synchronized void append(Entry e) {
        int payload = 8 + e.key().length + e.block().length;
        long size = 8L + payload;
        if (writePos + size > limitBytes) {
            throw spoolFull(path, limitBytes, writePos, recordsAppended);
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        buf.putInt(payload).putInt(0);
        buf.putInt(e.partition() == null ? -1 : e.partition()).putInt(e.key().length).put(e.key()).put(e.block());
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 8, payload);
        buf.putInt(4, (int) crc.getValue());
        buf.flip();
        try {
            uninterruptibly(() -> {
                while (buf.hasRemaining()) {
                    writePos += channel.write(buf, writePos);
                }
            });
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot append to the spool file " + path + " at offset " + writePos, ex);
        }
        recordsAppended++;
        bytesAppended += size;
        highWaterBytes = Math.max(highWaterBytes, writePos);
    }

    /** The next record not yet read, or null if the reader has caught up. */
    synchronized Entry next() {
        if (readPos >= writePos) {
            return null;
        }
        try {
            ByteBuffer head = ByteBuffer.allocate(8);
            readFully(head, readPos);
            int payload = head.getInt(0);
            int expected = head.getInt(4);
            if (payload < 8 || readPos + 8 + payload > writePos) {
                throw new IllegalStateException("spool file " + path + " is corrupt at offset " + readPos
                        + ": record length " + payload);
            }
            ByteBuffer body = ByteBuffer.allocate(payload);
            readFully(body, readPos + 8);
            CRC32C crc = new CRC32C();
            crc.update(body.array(), 0, payload);
            if ((int) crc.getValue() != expected) {
                throw new IllegalStateException("spool file " + path + " is corrupt at offset " + readPos
                        + ": checksum mismatch");
            }
            body.rewind();
            int partition = body.getInt();
            byte[] key = new byte[body.getInt()];
            body.get(key);
            byte[] block = new byte[body.remaining()];
            body.get(block);
            readPos += 8 + payload;
            return new Entry(partition < 0 ? null : partition, key, block);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spool file " + path + " at offset " + readPos, e);
        }
    }

    private void readFully(ByteBuffer buf, long pos) throws IOException {
        uninterruptibly(() -> {
            long p = pos;
            while (buf.hasRemaining()) {
                int n = channel.read(buf, p);
                if (n < 0) {
                    throw new IOException("unexpected end of spool file at offset " + p);
                }
                p += n;
            }
        });
    }

    private interface Io {
        void run() throws IOException;
    }

    /**
     * Runs channel I/O with the calling thread's interrupt flag cleared, then restores it. A {@link FileChannel}
     * closes itself when a thread blocked in it is interrupted; this file is shared by the emitter, the replay thread
     * and whoever publishes control events (e.g. the health sampler, interrupted when a step ends), so one caller's
     * interrupt must not close it for all of them — the interrupt is kept for the caller to act on.
     */
    private static void uninterruptibly(Io io) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            io.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Truncates the file if every record was read; returns whether it did. */
    synchronized boolean resetIfCaughtUp() {
        if (readPos < writePos) {
            return false;
        }
        try {
            uninterruptibly(() -> channel.truncate(0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the spool file " + path, e);
        }
        readPos = 0;
        writePos = 0;
        return true;
    }

    /** Bytes the file holds now (records read but not yet truncated away included). */
    synchronized long heldBytes() {
        return writePos;
    }

    /** Bytes a record of {@code e} takes in the file. */
    static long recordBytes(Entry e) {
        return 16L + e.key().length + e.block().length;
    }

    synchronized boolean isEmpty() {
        return readPos >= writePos;
    }

    /** Records appended since the file was opened (replays of re-spooled blocks included). */
    synchronized long recordsAppended() {
        return recordsAppended;
    }

    synchronized long bytesAppended() {
        return bytesAppended;
    }

    /** Most bytes the file held at once. */
    synchronized long highWaterBytes() {
        return highWaterBytes;
    }

    /** Closes the file and deletes it if nothing is left to replay (otherwise it is kept for inspection). */
    @Override
    public synchronized void close() {
        try {
            boolean empty = readPos >= writePos;
            channel.close();
            if (empty) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the spool file " + path, e);
        }
    }

    /** The spool reached its limit: the run must stop rather than drop samples. */
    static EmitException spoolFull(Path path, long limitBytes, long heldBytes, long records) {
        return new EmitException("the spool " + path + " reached its limit of " + limitBytes + " bytes ("
                + heldBytes + " bytes held, " + records + " blocks spooled so far) while the Kafka broker was"
                + " unreachable or too slow: stopping the run rather than dropping samples (raise --spool-limit or"
                + " fix the broker)", null);
    }
}
