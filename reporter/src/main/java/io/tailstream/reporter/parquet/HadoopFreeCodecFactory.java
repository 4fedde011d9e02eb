package io.tailstream.reporter.parquet;

import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Page compressors that call zstd-jni and {@code java.util.zip} directly.
 *
 * <p>Why this exists: parquet-java's default {@code CodecFactory} links Hadoop's codec classes and fails with
 * {@code NoClassDefFoundError} when Hadoop is not on the class path, even for {@code UNCOMPRESSED} (verified with
 * parquet-java 1.18.1; its codecs implement Hadoop's interfaces, PARQUET-2353).
 * Hadoop is only a compile-time ({@code provided}) dependency of this module, so every writer must use this
 * factory. Only the write side is implemented: the archive is read with DuckDB, not parquet-java (whose reader
 * still needs Hadoop in 1.18.1).
 *
 * <p>Thread safe: compressors hold no state.
 */
final class HadoopFreeCodecFactory implements CompressionCodecFactory {

    /** ZSTD level used when the writer does not name one: 3 is zstd's default, fast and already dense. */
    public static final int DEFAULT_ZSTD_LEVEL = 3;

    private final int zstdLevel;
    private final List<ZstdCompressor> zstdCompressors = new ArrayList<>();

    public HadoopFreeCodecFactory(int zstdLevel) {
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("zstd level must be in 1..22, was " + zstdLevel);
        }
        this.zstdLevel = zstdLevel;
    }

    public HadoopFreeCodecFactory() {
        this(DEFAULT_ZSTD_LEVEL);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED -> new Compressor(codec) {
                @Override
                public BytesInput compress(BytesInput bytes) {
                    return bytes;
                }
            };
            case ZSTD -> {
                ZstdCompressor c = new ZstdCompressor(zstdLevel);
                synchronized (zstdCompressors) {
                    zstdCompressors.add(c);
                }
                yield c;
            }
            case GZIP -> new Compressor(codec) {
                @Override
                public BytesInput compress(BytesInput bytes) throws IOException {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
                        bytes.writeAllTo(gz);
                    }
                    return BytesInput.from(out.toByteArray());
                }
            };
            default -> throw new IllegalArgumentException(
                    "compression codec " + codec + " is not supported without Hadoop; use ZSTD, GZIP or UNCOMPRESSED");
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
                throw unsupported();
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize) {
                throw unsupported();
            }

            @Override
            public void release() {
                // nothing held
            }

            private UnsupportedOperationException unsupported() {
                return new UnsupportedOperationException("reading " + codec
                        + " pages with parquet-java needs Hadoop; read the archive with DuckDB instead");
            }
        };
    }

    /** Frees the native contexts of the ZSTD compressors this factory made. */
    @Override
    public void release() {
        synchronized (zstdCompressors) {
            zstdCompressors.forEach(ZstdCompressor::release);
            zstdCompressors.clear();
        }
    }

    /**
     * Compresses with one native context, kept across pages: creating a context per page (what {@code
     * Zstd.compress} does) cost a tenth of the archiver's time in native code. Not thread safe, as parquet-java
     * uses a compressor (one per column chunk store).
     */
    private static final class ZstdCompressor extends Compressor {
        private final int level;
        private ZstdCompressCtx ctx;

        ZstdCompressor(int level) {
            super(CompressionCodecName.ZSTD);
            this.level = level;
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            if (ctx == null) {
                ctx = new ZstdCompressCtx();
                ctx.setLevel(level);
            }
            return BytesInput.from(ctx.compress(bytes.toByteArray()));
        }

        @Override
        public void release() {
            if (ctx != null) {
                ctx.close();
                ctx = null;
            }
        }
    }

    private abstract static class Compressor implements BytesInputCompressor {
        private final CompressionCodecName codec;

        Compressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        @Override
        public void release() {
            // stateless
        }
    }
}
