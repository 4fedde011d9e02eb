package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveRows.BlockRow;
import io.tailstream.reporter.archive.ArchiveRows.ClientHealthRow;
import io.tailstream.reporter.archive.ArchiveRows.ControlRow;
import io.tailstream.reporter.archive.ArchiveRows.StallRow;
import io.tailstream.reporter.archive.ArchiveRows.SummaryRow;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.CorruptBlockException;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes records of the archived topics into a partition's buffered rows, per run: sample blocks into the run's
 * open samples file and {@code blocks} rows, windows, control events (and their {@code client_health} rows), stall
 * events, step summaries and run summaries into rows of their datasets. A record that cannot be decoded is counted,
 * logged and skipped. Counts what it decoded.
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class RecordDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(RecordDecoder.class);
    private static final int MAX_CANONICAL_STRINGS = 4096;

    private final Path archiveDir;
    private final DatasetFiles files;
    private final Map<String, String> canonicalStrings = new HashMap<>();
    private long blocksSeen;
    private long samplesSeen;
    private long corruptRecords;
    private long latestSealedAtUs;

    /** @param files opens the runs' samples files */
    RecordDecoder(Path archiveDir, DatasetFiles files) {
        this.archiveDir = archiveDir;
        this.files = files;
    }

    /** Buffers the rows of record {@code r} of partition {@code pp}, counting them in {@link PendingPartition#rows}. */
    void decode(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        switch (r.topic()) {
            case Topics.SAMPLES -> addBlock(pp, r);
            case Topics.WINDOWS -> addWindow(pp, r);
            case Topics.CONTROL -> addControl(pp, r);
            case Topics.STALLS -> addStall(pp, r);
            case Topics.SUMMARIES -> addSummary(pp, r);
            case Topics.RUN_SUMMARIES -> addRunSummary(pp, r);
            default -> throw new IllegalArgumentException("the archiver does not read topic " + r.topic());
        }
    }

    private void addBlock(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        byte[] value = r.value();
        if (value == null) {
            corrupt(r, "null value");
            return;
        }
        BlockHeader h;
        try {
            h = SampleBlockDecoder.readHeader(value);
        } catch (CorruptBlockException e) {
            corrupt(r, e.getMessage());
            return;
        }
        PendingPartition.RunRows rows = pp.run(h.runId());
        if (rows.samples == null) {
            rows.samples = files.openSamples(h.runId(), pp, r.offset());
        }
        SampleColumns samples = rows.samples.buffer();
        int before = samples.size();
        List<String> ops = canonical(h.ops());
        String producer = canonical(h.producerId());
        int producerCode = samples.code(producer);
        int[] opCodes = new int[ops.size()];
        for (int o = 0; o < opCodes.length; o++) {
            opCodes[o] = samples.code(ops.get(o));
        }
        long seq = h.blockSeq();
        int step = h.stepId();
        boolean openLoop = h.openLoop();
        try {
            SampleBlockDecoder.decode(value, (start, latency, intended, op, status, queries, warmup) ->
                    samples.add(step, producerCode, seq, opCodes[op], start, latency, intended, status, queries, warmup,
                            openLoop));
        } catch (CorruptBlockException e) {
            samples.truncate(before);
            corrupt(r, e.getMessage());
            return;
        }
        String kind = h.heartbeat() ? "heartbeat" : h.endOfStep() ? "end_of_step" : "samples";
        try {
            rows.samples.maybeWriteRowGroup();
        } catch (IOException e) {
            throw new UncheckedIOException("writing a samples row group of " + r.topic() + "-" + r.partition()
                    + " under " + archiveDir, e);
        }
        rows.blocks.add(new BlockRow(step, producer, seq, kind, h.openLoop(), h.sealedAtEpochMicros(),
                h.sampleCount(), r.partition(), r.offset()));
        pp.rows += h.sampleCount() + 1;
        latestSealedAtUs = Math.max(latestSealedAtUs, h.sealedAtEpochMicros());
        blocksSeen++;
        samplesSeen += h.sampleCount();
    }

    /**
     * One instance per distinct producer id and op name: every block decodes its own copies, and the samples buffer
     * finds a string's code by identity first.
     */
    private String canonical(String s) {
        String c = canonicalStrings.get(s);
        if (c == null) {
            if (canonicalStrings.size() >= MAX_CANONICAL_STRINGS) {
                canonicalStrings.clear();
            }
            canonicalStrings.put(s, s);
            c = s;
        }
        return c;
    }

    private List<String> canonical(List<String> strings) {
        String[] out = new String[strings.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = canonical(strings.get(i));
        }
        return Arrays.asList(out);
    }

    private void addWindow(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        WindowStats w = readJson(r, WindowStats.class, v -> v.runId() != null && v.op() != null
                && v.histogram() != null, "window stats without runId, op or histogram");
        if (w == null) {
            return;
        }
        pp.run(w.runId()).windows.add(w);
        pp.rows++;
    }

    private void addControl(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        ControlEvent e = readJson(r, ControlEvent.class, v -> v.runId() != null && v.producerId() != null,
                "control event without runId or producerId");
        if (e == null) {
            return;
        }
        PendingPartition.RunRows rows = pp.run(e.runId());
        rows.control.add(new ControlRow(e.type(), e.atEpochMs(), e.producerId(), e.stepIdOrNull(),
                new String(r.value(), StandardCharsets.UTF_8), r.partition(), r.offset()));
        pp.rows++;
        if (e instanceof ClientHealth h) {
            rows.clientHealth.add(new ClientHealthRow(h, r.partition(), r.offset()));
            pp.rows++;
        } else if (e instanceof ServerCounters c) {
            List<ArchiveRows.ServerCounterRow> values = ArchiveRows.ServerCounterRow.of(c, r.partition(), r.offset());
            rows.serverCounters.addAll(values);
            pp.rows += values.size();
        }
    }

    private void addStall(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        StallEvent e = readJson(r, StallEvent.class, v -> v.runId() != null && v.kind() != null,
                "stall event without runId or kind");
        if (e == null) {
            return;
        }
        pp.run(e.runId()).stalls.add(new StallRow(e.stepId(), e.kind(), e.startEpochMs(), e.endEpochMs(), e.open(),
                e.baselineQps(), e.minQps(), e.baselineP99Micros(), e.worstP99Micros(),
                Json.writeString(e.affectedOps()), e.atEpochMs(), r.partition(), r.offset()));
        pp.rows++;
    }

    private void addSummary(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        StepSummary s = readJson(r, StepSummary.class, v -> v.runId() != null && v.op() != null,
                "step summary without runId or op");
        if (s == null) {
            return;
        }
        pp.run(s.runId()).summaries.add(new SummaryRow(s, r.partition(), r.offset()));
        pp.rows++;
    }

    private void addRunSummary(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        RunSummary s = readJson(r, RunSummary.class, v -> v.runId() != null, "run summary without runId");
        if (s == null) {
            return;
        }
        List<ArchiveRows.RunSummaryRow> rows = ArchiveRows.RunSummaryRow.of(s, r.partition(), r.offset());
        pp.run(s.runId()).runSummaries.addAll(rows);
        pp.rows += rows.size();
    }

    /**
     * The record's JSON value as {@code type}, or null (counted and logged as corrupt) if it does not parse or is
     * not {@code complete}.
     *
     * @param incomplete why a value that parses but is not {@code complete} is skipped
     */
    private <E> E readJson(ConsumerRecord<byte[], byte[]> r, Class<E> type, Predicate<E> complete,
                           String incomplete) {
        if (r.value() == null) {
            corrupt(r, "null value");
            return null;
        }
        E value;
        try {
            value = Json.read(r.value(), type);
        } catch (IllegalArgumentException e) {
            corrupt(r, e.getMessage());
            return null;
        }
        if (!complete.test(value)) {
            corrupt(r, incomplete);
            return null;
        }
        return value;
    }

    private void corrupt(ConsumerRecord<byte[], byte[]> r, String reason) {
        corruptRecords++;
        LOG.warn("skipping undecodable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    /** Records that could not be decoded and were skipped so far. */
    long corruptRecords() {
        return corruptRecords;
    }

    /** Samples decoded so far. */
    long samplesSeen() {
        return samplesSeen;
    }

    /** Sample blocks (markers included) decoded so far. */
    long blocksSeen() {
        return blocksSeen;
    }

    /** Producer clock at sealing of the newest block decoded so far, µs since the epoch; 0 before any. */
    long latestSealedAtUs() {
        return latestSealedAtUs;
    }
}
