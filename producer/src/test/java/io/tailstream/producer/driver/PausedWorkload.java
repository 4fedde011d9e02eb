package io.tailstream.producer.driver;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.sql.Connection;
import java.util.Map;

/**
 * A test workload whose sessions ask their worker to wait {@code pauseNanos} before every transaction, the first
 * included, as TPC-C's keying and think times do; each transaction is one statement-free step.
 */
record PausedWorkload(long pauseNanos) implements NoTablesWorkload {

    @Override
    public String name() {
        return "paused";
    }

    @Override
    public double queriesPerTransaction() {
        return 1;
    }

    @Override
    public Map<String, String> options() {
        return Map.of();
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) {
        return new WorkloadSession() {
            long pause = pauseNanos;

            @Override
            public void execute(TransactionOutcome out) {
                out.reset();
                out.statement();
                pause = pauseNanos;
            }

            @Override
            public long pauseNanos() {
                long p = pause;
                pause = 0;
                return p;
            }

            @Override
            public void close() {
            }
        };
    }
}
