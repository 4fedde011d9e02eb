package io.tailstream.producer.workload;

/**
 * Where a worker stands in its step: its index among the step's workers and how many there are, and the seed of its
 * random numbers. A workload whose workers divide the data between them (TPC-C binds each terminal to a warehouse
 * and a district) reads the first two; the others only the seed.
 *
 * @param index   0 to {@code workers - 1}
 * @param workers the step's workers
 * @param seed    seeds the worker's random numbers; different workers get different seeds
 */
public record WorkerSlot(int index, int workers, long seed) {

    public WorkerSlot {
        if (workers < 1 || index < 0 || index >= workers) {
            throw new IllegalArgumentException("worker " + index + " of " + workers);
        }
    }
}
