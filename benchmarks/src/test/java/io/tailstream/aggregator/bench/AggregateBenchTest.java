package io.tailstream.aggregator.bench;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link AggregateBench} from Maven (the test class path has the in-process broker):
 * {@code ./mvnw -q -o -pl benchmarks test -Dtest=AggregateBenchTest -Dtailstream.bench.samples=60000000} (other
 * settings in {@link AggregateBench}).
 * Skipped (with this reason) in the normal build: a benchmark is not a test and takes minutes.
 */
class AggregateBenchTest {

    @Test
    void aggregateBench() throws Exception {
        String samples = System.getProperty("tailstream.bench.samples");
        Assumptions.assumeTrue(samples != null, "benchmark: run with -Dtailstream.bench.samples=N");
        AggregateBench.main(new String[] {samples, System.getProperty("tailstream.bench.naiveSamples", "20000")});
    }
}
