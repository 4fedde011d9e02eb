package io.tailstream.producer.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The CPU split by role: exact with a source of known figures, and in the right place with real threads. */
class CpuAccountTest {

    static final long MS = 1_000_000L;

    /** A source whose threads, names and CPU times the test sets. */
    static final class FakeSource implements ThreadCpuSource {
        final Map<Long, Long> cpu = new LinkedHashMap<>();
        final Map<Long, String> names = new LinkedHashMap<>();
        long process;
        long current;
        boolean supported = true;

        void thread(long id, String name, long cpuNanos) {
            names.put(id, name);
            cpu.put(id, cpuNanos);
        }

        void end(long id) {
            names.remove(id);
            cpu.remove(id);
        }

        @Override
        public long processCpuNanos() {
            return process;
        }

        @Override
        public long[] liveThreadIds() {
            return cpu.keySet().stream().mapToLong(Long::longValue).toArray();
        }

        @Override
        public long[] threadCpuNanos(long[] ids) {
            long[] out = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = cpu.getOrDefault(ids[i], -1L);
            }
            return out;
        }

        @Override
        public String[] threadNames(long[] ids) {
            String[] out = new String[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = names.get(ids[i]);
            }
            return out;
        }

        @Override
        public long currentThreadCpuNanos() {
            return current;
        }

        @Override
        public boolean threadCpuSupported() {
            return supported;
        }
    }

    @Test
    void split_workersAndSinkAreLoadGen_burnerIsPipeline_restIsJvm_exactly() throws Exception {
        FakeSource src = new FakeSource();
        LoadGenThreads gen = new LoadGenThreads(src);
        gen.recognise(name -> name.startsWith("kafka-producer-network-thread | tailstream-producer-p1"));
        src.thread(1, "main", 400 * MS); // before the account: its earlier CPU is not counted
        src.process = 900 * MS;
        CpuAccount account = new CpuAccount(src, gen, 0);

        // threads that only report their final CPU, as a worker does last thing before it ends
        Thread worker = new Thread(gen::retireCurrentThread, "tailstream-worker-1-0");
        gen.register(worker);
        src.thread(worker.getId(), "tailstream-worker-1-0", 30 * MS);
        src.thread(900_001, "burner", 50 * MS);
        src.thread(900_002, "kafka-producer-network-thread | tailstream-producer-p1", 10 * MS);
        src.cpu.put(1L, 401 * MS);
        src.process = 1_000 * MS; // +100 ms
        CpuAccount.Split s = account.read(1_000 * MS);
        assertThat(s.loadGenNanos()).isEqualTo(40 * MS);
        assertThat(s.pipelineNanos()).isEqualTo(51 * MS);
        assertThat(s.jvmNanos()).isEqualTo(9 * MS);
        assertThat(s.processNanos()).isEqualTo(100 * MS);
        assertThat(s.pct(s.loadGenNanos(), 2)).isEqualTo(2.0);
        assertThat(s.pct(s.pipelineNanos(), 2)).isEqualTo(2.55);

        // the worker ends and reports its final CPU on its way out; another worker starts and ends unseen
        src.current = 45 * MS;
        worker.start();
        worker.join();
        src.end(worker.getId());
        Thread brief = new Thread(gen::retireCurrentThread, "tailstream-worker-2-0");
        gen.register(brief);
        src.current = 7 * MS;
        brief.start();
        brief.join();
        src.cpu.put(900_001L, 70 * MS);
        src.process = 1_060 * MS;
        CpuAccount.Split t = account.read(2_000 * MS);
        assertThat(t.loadGenNanos()).isEqualTo((45 - 30 + 7) * MS);
        assertThat(t.pipelineNanos()).isEqualTo(20 * MS);
        assertThat(t.jvmNanos()).isEqualTo(18 * MS);
        assertThat(t.wallNanos()).isEqualTo(1_000 * MS);

        // an unregistered thread with the sink's name prefix but another client id is not the load generator's
        src.thread(900_003, "kafka-producer-network-thread | streams-app-1-producer", 0);
        account.read(2_500 * MS);
        src.cpu.put(900_003L, 5 * MS);
        src.process += 5 * MS;
        CpuAccount.Split u = account.read(3_000 * MS);
        assertThat(u.loadGenNanos()).isZero();
        assertThat(u.pipelineNanos()).isEqualTo(5 * MS);
    }

    @Test
    void withoutThreadCpu_onlyTheProcessIsKnown() {
        FakeSource src = new FakeSource();
        src.supported = false;
        CpuAccount account = new CpuAccount(src, new LoadGenThreads(src), 0);
        src.process = 250 * MS;
        CpuAccount.Split s = account.read(500 * MS);
        assertThat(s.processNanos()).isEqualTo(250 * MS);
        assertThat(s.loadGenNanos() + s.pipelineNanos() + s.jvmNanos()).isZero();
    }

    @Test
    void realThreads_aBurnersCpuLandsInThePipeline_aRegisteredThreadsInLoadGen() throws Exception {
        ThreadCpuSource jvm = ThreadCpuSource.jvm();
        LoadGenThreads gen = new LoadGenThreads(jvm);
        CpuAccount account = new CpuAccount(jvm, gen, System.nanoTime());
        CountDownLatch done = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong registeredBurn = new AtomicLong();
        AtomicLong burnerBurn = new AtomicLong();
        Thread registered = new Thread(() -> burn(20 * MS, registeredBurn, done, release), "registered");
        Thread burner = new Thread(() -> burn(300 * MS, burnerBurn, done, release), "burner");
        gen.register(registered);
        registered.start();
        burner.start();
        done.await();
        try {
            CpuAccount.Split s = account.read(System.nanoTime());
            // by CPU time, not wall time: the burners are done and parked, whatever the machine's load
            assertThat(s.pipelineNanos()).isGreaterThanOrEqualTo(burnerBurn.get());
            assertThat(s.loadGenNanos()).isGreaterThanOrEqualTo(registeredBurn.get()).isLessThan(burnerBurn.get());
        } finally {
            release.countDown();
            registered.join();
            burner.join();
        }
    }

    /** Spins until this thread used {@code nanos} of CPU, records it, then waits for {@code release}. */
    private static void burn(long nanos, AtomicLong burned, CountDownLatch done, CountDownLatch release) {
        ThreadCpuSource jvm = ThreadCpuSource.jvm();
        long x = 0;
        while (jvm.currentThreadCpuNanos() < nanos) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        burned.set(jvm.currentThreadCpuNanos() + (x == 42 ? 1 : 0));
        done.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
