package io.tailstream.aggregator.topology;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link StageOneBench} from Maven:
 * {@code ./mvnw -q -o -pl benchmarks test -Dtest=StageOneBenchTest -Dtailstream.bench.stageOneSamples=20000000}.
 * Skipped (with this reason) in the normal build: a benchmark is not a test.
 */
class StageOneBenchTest {

    @Test
    void stageOneBench() {
        String samples = System.getProperty("tailstream.bench.stageOneSamples");
        Assumptions.assumeTrue(samples != null, "benchmark: run with -Dtailstream.bench.stageOneSamples=N");
        StageOneBench.main(new String[] {samples});
    }
}
