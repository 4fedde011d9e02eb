package io.tailstream.producer.health;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which threads are the load generator's own: the threads the producer creates register here (workers, health and
 * probe threads), and the sink's threads it cannot create itself (Kafka's sender threads, named after the client id
 * the sink sets) are recognised by name. A registered thread that ends reports its final CPU on its way out, so the
 * last part of its work is not lost between two readings. Thread safe.
 */
public final class LoadGenThreads {

    private final ThreadCpuSource source;
    private final Set<Long> registered = ConcurrentHashMap.newKeySet();
    private final Map<Long, Long> retired = new ConcurrentHashMap<>();
    private volatile Predicate<String> byName = name -> false;

    public LoadGenThreads(ThreadCpuSource source) {
        this.source = source;
    }

    /** Where the threads' CPU is read. */
    public ThreadCpuSource source() {
        return source;
    }

    /** Counts {@code thread}'s CPU as load generation from now on; call before it starts. */
    public void register(Thread thread) {
        registered.add(thread.getId());
    }

    /** Also counts every thread whose name {@code names} accepts (the sink's threads). */
    public void recognise(Predicate<String> names) {
        byName = names;
    }

    /**
     * A registered thread ends: records its CPU so far. Call from the ending thread itself, last thing; cheap (one
     * read of its own CPU time).
     */
    public void retireCurrentThread() {
        long id = Thread.currentThread().getId();
        if (registered.contains(id)) {
            retired.put(id, source.currentThreadCpuNanos());
        }
    }

    /** True if the thread is the load generator's. */
    boolean isLoadGen(long id, String name) {
        return registered.contains(id) || (name != null && byName.test(name));
    }

    /** Takes the final CPU of the registered threads that ended since the last call, by id; they are forgotten. */
    Map<Long, Long> takeRetired() {
        Map<Long, Long> out = new java.util.HashMap<>();
        for (Long id : retired.keySet()) {
            Long cpu = retired.remove(id);
            if (cpu != null) {
                out.put(id, cpu);
                registered.remove(id);
            }
        }
        return out;
    }
}
