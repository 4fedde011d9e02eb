package io.tailstream.aggregator.bench;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link AggregateBench} from Maven (the test class path has the in-process broker):
 * {@code ./mvnw -q -o -pl benchmarks test -Dtest=AggregateBenchTest -Dtailstream.bench.samples=60000000} (other
 * settings in {@link AggregateBench}); with {@code -Dtailstream.bench.instances=2}, {@link AggregateInstancesBench};
 * with {@code -Dtailstream.bench.brokers=3}, {@link AggregateBrokersBench}.
 * Skipped (with this reason) in the normal build: a benchmark is not a test and takes minutes.
 */
class AggregateBenchTest {

    @Test
    void aggregateBench() throws Exception {
        String samples = System.getProperty("tailstream.bench.samples");
        Assumptions.assumeTrue(samples != null, "benchmark: run with -Dtailstream.bench.samples=N");
        String brokers = System.getProperty("tailstream.bench.brokers");
        if (brokers != null) {
            AggregateBrokersBench.main(new String[] {samples, brokers,
                    System.getProperty("tailstream.bench.rounds", "3")});
            return;
        }
        String instances = System.getProperty("tailstream.bench.instances");
        if (instances != null) {
            AggregateInstancesBench.main(new String[] {samples, instances,
                    System.getProperty("tailstream.bench.rounds", "3")});
            return;
        }
        AggregateBench.main(new String[] {samples, System.getProperty("tailstream.bench.naiveSamples", "20000")});
    }
}
