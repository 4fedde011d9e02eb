package io.tailstream.producer.driver;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Adds up the measurement totals of a step's workers into its {@link StepResult}.
 *
 * <p>Stateless; call it once the workers' threads were joined (their totals are plain fields).
 */
final class StepTally {

    private StepTally() {}

    /** The step's figures over the measured span of {@code phases}; rates are 0 when the span is empty. */
    static StepResult of(StepSpec spec, List<Worker> workers, StepResult.Phases phases) {
        Histogram all = LatencyHistograms.create();
        Histogram corrected = LatencyHistograms.create();
        long ok = 0;
        long err = 0;
        long queries = 0;
        long samples = 0;
        long failedSumMicros = 0;
        long failedMaxMicros = 0;
        long[] errorsByCode = new long[SampleStatus.MAX_CODE + 1];
        long reconnects = 0;
        for (Worker w : workers) {
            reconnects += w.reconnects;
            all.add(w.measured);
            corrected.add(w.measuredCorrected);
            ok += w.measuredOk;
            err += w.measuredErrors;
            queries += w.measuredQueries;
            samples += w.samples;
            failedSumMicros += w.failedLatencySumMicros;
            failedMaxMicros = Math.max(failedMaxMicros, w.failedLatencyMaxMicros);
            for (int code = 0; code < errorsByCode.length; code++) {
                errorsByCode[code] += w.measuredErrorsByCode[code];
            }
        }
        Map<String, Long> byClass = new TreeMap<>();
        for (int code = 0; code < errorsByCode.length; code++) {
            if (errorsByCode[code] > 0) {
                byClass.put(SampleStatus.ofCode(code).label(), errorsByCode[code]);
            }
        }
        StepResult.Failures failures = err == 0 ? StepResult.Failures.NONE
                : new StepResult.Failures(byClass, failedSumMicros / 1000.0 / err, failedMaxMicros / 1000.0);
        // the exact span the events carry, so rates recomputed from the raw samples agree to the last digit
        double secs = phases.measuredMicros() / 1e6;
        double tps = secs > 0 ? ok / secs : 0;
        double qps = secs > 0 ? queries / secs : 0;
        boolean any = all.getTotalCount() > 0;
        return new StepResult(spec.stepId(), spec.targetName(), spec.workload().name(), spec.threads(), spec.round(),
                tps, qps, any ? all.getMean() / 1000.0 : 0,
                any ? all.getValueAtPercentile(95) / 1000.0 : 0, any ? all.getValueAtPercentile(99) / 1000.0 : 0,
                any ? all.getMaxValue() / 1000.0 : 0, ok, err, queries, secs, samples, 0, 0, 0, spec.openLoop(),
                any ? corrected.getMean() / 1000.0 : 0, any ? corrected.getValueAtPercentile(95) / 1000.0 : 0,
                any ? corrected.getValueAtPercentile(99) / 1000.0 : 0, any ? corrected.getMaxValue() / 1000.0 : 0,
                false, -1, failures, reconnects, phases, -1, -1, StepResult.COMPLETED);
    }

}
