package io.tailstream.reporter.query;

/**
 * Exact figures of one (target, workload, threads) of a run over the measurement phase, computed from the raw
 * samples (warm-up samples excluded), pooled over the rounds (steps) that ran it.
 *
 * @param runId      run
 * @param target     target name
 * @param workload   workload name
 * @param threads    client threads (concurrency)
 * @param rounds     steps pooled
 * @param samples    measured transactions, failed ones included
 * @param errors     measured transactions with a status other than {@code ok}
 * @param seconds    measured time: per step, last completion minus first start of its measured samples, summed
 * @param queries    statements of the measured transactions
 * @param qps        {@code queries / seconds}
 * @param tps        successful transactions / {@code seconds}
 * @param meanUs     mean latency, µs
 * @param p50Us      nearest-rank percentiles of latency (value at rank {@code ceil(p * samples)}), µs
 * @param p95Us      see p50Us
 * @param p99Us      see p50Us
 * @param maxUs      highest latency, µs
 */
public record StepFigure(
        String runId,
        String target,
        String workload,
        int threads,
        int rounds,
        long samples,
        long errors,
        double seconds,
        long queries,
        double qps,
        double tps,
        double meanUs,
        long p50Us,
        long p95Us,
        long p99Us,
        long maxUs) {

    /** What steps of two runs are matched on: target, workload and threads. */
    public record Key(String target, String workload, int threads) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = workload.compareTo(o.workload);
            if (c == 0) {
                c = target.compareTo(o.target);
            }
            return c != 0 ? c : Integer.compare(threads, o.threads);
        }

        @Override
        public String toString() {
            return target + "/" + workload + "/" + threads + " threads";
        }
    }

    public Key key() {
        return new Key(target, workload, threads);
    }
}
