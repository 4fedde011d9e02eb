package io.tailstream.producer.driver;

import io.tailstream.producer.emit.SampleWriter;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.time.EpochAnchor;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSession;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import javax.sql.DataSource;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One closed-loop worker thread: borrows a connection, opens a workload session and runs transactions back to back
 * until the step's end. Its interval counters are written by this thread only and read by the reporter
 * ({@code setOpaque}/{@code getOpaque}: single writer, no lock); its measurement totals are read after
 * {@link Thread#join()}.
 */
final class Worker implements Runnable {

    private final ClosedLoopDriver.Run run;
    private final int index;
    private final SampleWriter writer;
    private final Clock clock;
    private final EpochAnchor anchor;

    /** Interval view for the console: all samples, warm-up included. 2 digits is plenty for an interval line. */
    final Recorder recorder = new Recorder(LatencyHistograms.HIGHEST_TRACKABLE_MICROS, 2);
    /** The reporter's recycled interval histogram for {@link #recorder}; touched by the reporter thread only. */
    Histogram intervalRecycle;
    /** Running totals for the console's interval lines, read as consistent snapshots. */
    final IntervalCounters counters = new IntervalCounters();

    // measurement phase only; read after join
    final Histogram measured = LatencyHistograms.create();
    long measuredOk;
    long measuredErrors;
    long measuredQueries;
    long samples;
    long lastEndNanos;

    Worker(ClosedLoopDriver.Run run, int index, SampleWriter writer, Clock clock, EpochAnchor anchor) {
        this.run = run;
        this.index = index;
        this.writer = writer;
        this.clock = clock;
        this.anchor = anchor;
    }

    @Override
    public void run() {
        DataSource ds = run.dataSource;
        Dialect dialect = run.dialect;
        Workload workload = run.spec.workload();
        Set<SampleStatus> ignored = run.spec.ignoredErrors();
        TransactionOutcome outcome = new TransactionOutcome();
        try (Connection c = ds.getConnection();
             WorkloadSession session = workload.open(c, dialect, run.seedBase + index)) {
            run.ready.countDown();
            run.start.await();
            while (!run.stop) {
                long t0 = clock.nanoTime();
                if (t0 - run.endNanos >= 0) {
                    break;
                }
                SampleStatus status = SampleStatus.OK;
                SQLException error = null;
                try {
                    session.execute(outcome);
                } catch (SQLException e) {
                    status = dialect.classify(e);
                    error = e;
                }
                long t1 = clock.nanoTime();
                record(t0, t1, outcome, status);
                if (error != null && !ignored.contains(status)) {
                    run.fail(status.label() + " (not ignored): " + SqlErrors.describe(error), error);
                }
            }
        } catch (SQLException e) {
            run.fail("worker " + index + " cannot open its connection or session: " + SqlErrors.describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.fail("worker " + index + " interrupted", e);
        } catch (RuntimeException e) {
            run.fail("worker " + index + ": " + e, e);
        } finally {
            run.ready.countDown();
            try {
                writer.flush();
            } catch (RuntimeException e) {
                run.fail("worker " + index + " cannot hand over its last samples: " + e.getMessage(), e);
            }
        }
    }

    private void record(long t0, long t1, TransactionOutcome outcome, SampleStatus status) {
        long startMicros = anchor.epochMicros(t0);
        long latencyMicros = anchor.epochMicros(t1) - startMicros;
        boolean warmup = t0 - run.measureStartNanos < 0;
        int queries = outcome.statements();
        writer.write(startMicros, latencyMicros, startMicros, outcome.opIndex(), status, queries, warmup);
        recorder.recordValue(Math.min(latencyMicros, LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
        boolean ok = status == SampleStatus.OK;
        counters.add(ok, queries);
        samples++;
        lastEndNanos = t1;
        if (!warmup) {
            LatencyHistograms.record(measured, latencyMicros);
            if (ok) {
                measuredOk++;
            } else {
                measuredErrors++;
            }
            measuredQueries += queries;
        }
    }
}
