package io.tailstream.reporter.archive;

import java.time.Duration;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How far an archiver is, reported every few seconds while it runs (see {@link Archiver.ProgressListener}).
 *
 * @param samplesDone      samples decoded since the archiver started
 * @param recordsDone      records consumed since it started, all topics
 * @param recordsTotal     catching up: records to consume in all (the end offsets seen at start less the committed
 *                         offsets); continuous: -1
 * @param lagRecords       records of the samples topic published but not yet consumed (-1 until known)
 * @param samplesPerBlock  average samples per sample block so far, to turn records into samples (0 before any)
 * @param latestSealedAtUs producer clock at sealing of the newest block consumed, µs since the epoch (0 before any)
 * @param elapsed          since the archiver started consuming
 * @param nowEpochMs       when this was taken (wall clock, for the seconds behind)
 */
public record ArchiveProgress(long samplesDone, long recordsDone, long recordsTotal, long lagRecords,
                              double samplesPerBlock, long latestSealedAtUs, Duration elapsed, long nowEpochMs) {

    /** Samples archived per second since the start. */
    public double samplesPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s > 0 ? samplesDone / s : 0;
    }

    /** Catching up: estimated time left at the average record rate so far; empty when unknown or continuous. */
    public OptionalLong etaSeconds() {
        if (recordsTotal < 0 || recordsDone == 0) {
            return OptionalLong.empty();
        }
        double perRecordNs = (double) elapsed.toNanos() / recordsDone;
        return OptionalLong.of(Math.round(Math.max(0, recordsTotal - recordsDone) * perRecordNs / 1e9));
    }

    /** Samples behind the end of the samples topic, estimated from records and the average block (or -1). */
    public long lagSamples() {
        return lagRecords < 0 ? -1 : Math.round(lagRecords * samplesPerBlock);
    }

    /**
     * Seconds between now and the sealing of the newest block consumed: how old the archive's newest samples are
     * (producer clocks), or -1 before any block.
     */
    public double lagSeconds() {
        return latestSealedAtUs <= 0 ? -1 : Math.max(0, nowEpochMs - latestSealedAtUs / 1000) / 1000.0;
    }

    /** One line for a console or a log: done/total, rate and ETA when catching up; lag when continuous. */
    public String line() {
        if (recordsTotal >= 0) {
            double fraction = recordsTotal == 0 ? 1 : (double) recordsDone / recordsTotal;
            String total = recordsDone == 0 ? "?" : String.format(Locale.ROOT, "~%,d",
                    Math.round(samplesDone / Math.max(fraction, 1e-9)));
            OptionalLong eta = etaSeconds();
            return String.format(Locale.ROOT, "archived %,d of %s samples (%,d of %,d records, %.0f%%), %,.0f samples/s,"
                            + " ETA %s", samplesDone, total, recordsDone, recordsTotal, fraction * 100,
                    samplesPerSecond(), eta.isPresent() ? eta.getAsLong() + " s" : "?");
        }
        String behind = lagRecords < 0 ? "lag unknown" : lagRecords == 0 ? "caught up"
                : String.format(Locale.ROOT, "~%,d samples (%,d records) behind", lagSamples(), lagRecords);
        double age = lagSeconds();
        return String.format(Locale.ROOT, "archived %,d samples, %,.0f samples/s; %s; newest block sealed %s",
                samplesDone, samplesPerSecond(), behind, age < 0 ? "never" : String.format(Locale.ROOT,
                        "%.1f s ago", age));
    }
}
