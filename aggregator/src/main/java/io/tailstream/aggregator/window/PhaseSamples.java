package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowPart;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The samples of one phase (measured or warm-up) of a {@link WindowAggregate}: successful and failed samples'
 * latencies, errors by status code and the statements of successful and failed samples. Mutable (merged into); not
 * thread safe.
 */
final class PhaseSamples {

    private static final int STATUS_CODES = SampleStatus.MAX_CODE + 1;

    SparseHistogram ok;
    SparseHistogram failed;
    final long[] errorsByCode = new long[STATUS_CODES];
    long okQueries;
    long failedQueries;

    PhaseSamples() {
        this(SparseHistogram.EMPTY, SparseHistogram.EMPTY, null, 0, 0);
    }

    /** @param errorsByCode copied; null for none */
    PhaseSamples(SparseHistogram ok, SparseHistogram failed, long[] errorsByCode, long okQueries, long failedQueries) {
        this.ok = ok;
        this.failed = failed;
        if (errorsByCode != null) {
            for (int code = 0; code < STATUS_CODES; code++) {
                if (code != SampleStatus.OK.code()) {
                    this.errorsByCode[code] = errorsByCode[code];
                }
            }
        }
        this.okQueries = okQueries;
        this.failedQueries = failedQueries;
    }

    long count() {
        return ok.totalCount() + failed.totalCount();
    }

    long errors() {
        long n = 0;
        for (long e : errorsByCode) {
            n += e;
        }
        return n;
    }

    long queries() {
        return okQueries + failedQueries;
    }

    /** Non-empty latency buckets, successful and failed: what the binary form's size is proportional to. */
    int buckets() {
        return ok.size() + failed.size();
    }

    boolean isEmpty() {
        return ok.size() == 0 && failed.size() == 0 && okQueries == 0 && failedQueries == 0 && errors() == 0;
    }

    void add(PhaseSamples other) {
        ok = ok.merge(other.ok);
        failed = failed.merge(other.failed);
        for (int i = 0; i < STATUS_CODES; i++) {
            errorsByCode[i] += other.errorsByCode[i];
        }
        okQueries += other.okQueries;
        failedQueries += other.failedQueries;
    }

    WindowPart toPart() {
        return WindowPart.of(count(), errors(), byClass(s -> errorsByCode[s.code()]), queries(), okQueries,
                ok.size() == 0 ? null : ok.toHistogram(), failed.size() == 0 ? null : failed.toHistogram());
    }

    /** Errors by status label, in status order, from the errors of each status; statuses without errors left out. */
    static Map<String, Long> byClass(ToLongFunction<SampleStatus> errorsOf) {
        Map<String, Long> byClass = new LinkedHashMap<>();
        for (SampleStatus s : SampleStatus.values()) {
            long n = errorsOf.applyAsLong(s);
            if (n > 0) {
                byClass.put(s.label(), n);
            }
        }
        return byClass;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PhaseSamples p && ok.equals(p.ok) && failed.equals(p.failed)
                && Arrays.equals(errorsByCode, p.errorsByCode) && okQueries == p.okQueries
                && failedQueries == p.failedQueries;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ok, failed, okQueries, failedQueries);
    }
}
