package io.tailstream.reporter.archive;

import java.util.Map;

/**
 * What a running archiver has done and how far behind the topics it is, published by its loop about once a second
 * ({@link Archiver#status()}), for a metrics endpoint read from other threads.
 *
 * @param recordsConsumed  records consumed since the start, all topics
 * @param samplesArchived  samples decoded since the start (in files at the next roll)
 * @param blocksArchived   sample blocks consumed since the start, markers included
 * @param filesPublished   Parquet files moved into place since the start
 * @param corruptRecords   records that could not be decoded and were skipped
 * @param lagRecords       per topic: records published and not yet consumed, summed over the partitions whose lag
 *                         the consumer knows (from its last fetch responses); a topic is absent until one is known
 * @param lagSamples       samples behind the end of the samples topic, estimated from its record lag and the
 *                         average samples per block so far; -1 when unknown
 * @param lagSeconds       0 when the samples topic is consumed to its end; otherwise how old the newest consumed
 *                         block is (now less its sealing time, producer clock); -1 when unknown
 */
public record ArchiverStatus(long recordsConsumed, long samplesArchived, long blocksArchived, long filesPublished,
                             long corruptRecords, Map<String, Long> lagRecords, long lagSamples, double lagSeconds) {

    /** Before the loop published anything. */
    public static final ArchiverStatus NONE = new ArchiverStatus(0, 0, 0, 0, 0, Map.of(), -1, -1);

    public ArchiverStatus {
        lagRecords = Map.copyOf(lagRecords);
    }
}
