package io.tailstream.producer.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.health.LoadGenThreads;
import io.tailstream.producer.health.ThreadCpuSource;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.time.ManualClock;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.ServerCounters;
import java.lang.reflect.Proxy;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The sampler's rules, with a server that never answers: readings at a step's start and end, failures published. */
class ServerCounterSamplerTest {

    /** A sink that keeps the events it is given. */
    static final class Events implements SampleSink {
        final List<ControlEvent> published = new CopyOnWriteArrayList<>();

        @Override
        public String producerId() {
            return "p1";
        }

        @Override
        public void publish(ControlEvent event) {
            published.add(event);
        }

        @Override
        public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long blocksSent() {
            return 0;
        }

        @Override
        public long samplesSent() {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    /** A pool whose every connection attempt times out, as Hikari's does when the server is away; counts them. */
    private static DataSource unreachable(AtomicInteger attempts) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        attempts.incrementAndGet();
                        throw new SQLTransientConnectionException("tailstream-db - Connection is not available,"
                                + " request timed out after 2000ms (jdbc:mysql://u:secret@db/x)");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aStepsStartAndEnd_eachRead_aFailedReadingPublishedWithItsReason_noneOutsideASteps() {
        Events sink = new Events();
        AtomicInteger attempts = new AtomicInteger();
        ManualClock clock = new ManualClock(0, 1_760_000_000_000_000L);
        // an hour's period: only the readings the steps ask for
        try (ServerCounterSampler sampler = new ServerCounterSampler("run-1", sink, Duration.ofHours(1), clock,
                new LoadGenThreads(ThreadCpuSource.jvm()))) {
            sampler.stepStarted(1); // no target yet: nothing read
            sampler.stepEnded();
            sampler.target("db", unreachable(attempts), Dialect.forUrl("jdbc:h2:mem:x"));
            sampler.stepStarted(2);
            sampler.stepEnded();
            sampler.stepEnded(); // no step: nothing
            sampler.noTarget();
            sampler.stepStarted(3);
            sampler.stepEnded();
        }
        assertThat(attempts).hasValue(2);
        assertThat(sink.published).hasSize(2).allSatisfy(e -> {
            ServerCounters c = (ServerCounters) e;
            assertThat(c.stepId()).isEqualTo(2);
            assertThat(c.target()).isEqualTo("db");
            assertThat(c.runId()).isEqualTo("run-1");
            assertThat(c.producerId()).isEqualTo("p1");
            assertThat(c.atEpochMs()).isEqualTo(1_760_000_000_000L);
            assertThat(c.gauges()).isEmpty();
            assertThat(c.counters()).isEmpty();
            assertThat(c.readMicros()).isNotNegative();
            assertThat(c.error()).contains("Connection is not available").doesNotContain("secret");
        });
    }
}
