package io.tailstream.reporter.archive;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The row order of a samples row group: rows by start time, ties in arrival order. Each row becomes one {@code long}
 * key, {@code (start - min start, row)} packed, so keys are distinct and their order is the order wanted. Rows arrive
 * in blocks, each in start order, so the keys form a few ascending runs (about one per block): those are merged
 * pairwise, bottom-up, as {@code Arrays.sort} does with such input. Keys in many short runs are sorted by a least
 * significant digit radix sort over the start's bits instead (the row bits already hold arrival order, which its
 * stable passes keep). The arrays are kept between calls, so sorting a row group allocates nothing; {@code
 * Arrays.sort} allocated a row group's worth of merge buffer on every call (a humongous object for G1 at a million
 * rows, and a garbage collection with it).
 *
 * <p>Not thread safe.
 */
final class TimeOrder {

    /** Up to this many ascending runs, keys are merged (at most 12 passes), beyond, radix sorted. */
    private static final int MAX_MERGED_RUNS = 4096;
    private static final int DIGIT_BITS = 11;
    private static final int RADIX = 1 << DIGIT_BITS;

    private int[] order = new int[0];
    private long[] keys = new long[0];
    private long[] scratch = new long[0];
    private final int[] counts = new int[RADIX];
    private final int[] runStarts = new int[MAX_MERGED_RUNS + 1];
    private final int[] mergedStarts = new int[MAX_MERGED_RUNS + 1];

    /**
     * Indices {@code 0..n-1} of {@code startUs} ordered by start, ties ascending. The array is reused (and
     * overwritten) by the next call; only its first {@code n} entries are meaningful.
     */
    int[] of(long[] startUs, int n) {
        if (order.length < n) {
            int capacity = Math.max(n, order.length * 2);
            order = new int[capacity];
            keys = new long[capacity];
            scratch = new long[capacity];
        }
        if (n == 0) {
            return order;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, startUs[i]);
            max = Math.max(max, startUs[i]);
        }
        int indexBits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
        long span = max - min;
        int spanBits = 64 - Long.numberOfLeadingZeros(span);
        if (span < 0 || spanBits + indexBits > 63) {
            return boxed(startUs, n); // a row group spanning over 100 days, or start times near the long range's ends
        }
        for (int i = 0; i < n; i++) {
            keys[i] = ((startUs[i] - min) << indexBits) | i;
        }
        long[] sorted = merged(n);
        if (sorted == null) {
            sorted = radixSorted(n, indexBits, spanBits);
        }
        long mask = (1L << indexBits) - 1;
        for (int i = 0; i < n; i++) {
            order[i] = (int) (sorted[i] & mask);
        }
        return order;
    }

    /** The keys merged run by run (in {@code keys} or {@code scratch}), or null if they form too many runs. */
    private long[] merged(int n) {
        int runs = 0;
        runStarts[runs++] = 0;
        for (int i = 1; i < n; i++) {
            if (keys[i] < keys[i - 1]) {
                if (runs == MAX_MERGED_RUNS) {
                    return null;
                }
                runStarts[runs++] = i;
            }
        }
        runStarts[runs] = n;
        long[] src = keys;
        long[] dst = scratch;
        int[] starts = runStarts;
        int[] next = mergedStarts;
        while (runs > 1) {
            int merged = 0;
            for (int r = 0; r < runs; r += 2) {
                int from = starts[r];
                int mid = starts[Math.min(r + 1, runs)];
                int to = starts[Math.min(r + 2, runs)];
                next[merged++] = from;
                merge(src, from, mid, to, dst);
            }
            next[merged] = n;
            runs = merged;
            long[] t = src;
            src = dst;
            dst = t;
            int[] ts = starts;
            starts = next;
            next = ts;
        }
        return src;
    }

    /**
     * Merges the ascending runs {@code src[from..mid)} and {@code src[mid..to)} into {@code dst[from..to)}. Only
     * where they overlap are keys compared one by one: blocks overlap their neighbours in time only, so most of two
     * long runs is copied as it is.
     */
    private static void merge(long[] src, int from, int mid, int to, long[] dst) {
        if (mid == to) {
            System.arraycopy(src, from, dst, from, to - from); // the odd run out of a pass
            return;
        }
        int a = firstAbove(src, from, mid, src[mid]); // [from, a) precedes the second run
        int bEnd = firstAbove(src, mid, to, src[mid - 1]); // [bEnd, to) follows the first run
        System.arraycopy(src, from, dst, from, a - from);
        System.arraycopy(src, bEnd, dst, bEnd, to - bEnd);
        int b = mid;
        int out = a;
        while (a < mid && b < bEnd) {
            long x = src[a];
            long y = src[b];
            if (x < y) {
                dst[out++] = x;
                a++;
            } else {
                dst[out++] = y;
                b++;
            }
        }
        System.arraycopy(src, a, dst, out, mid - a);
        out += mid - a;
        System.arraycopy(src, b, dst, out, bEnd - b);
    }

    /** The first index in the ascending {@code keys[from..to)} whose key is above {@code key} ({@code to} if none). */
    private static int firstAbove(long[] keys, int from, int to, long key) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int m = (lo + hi) >>> 1;
            if (keys[m] <= key) {
                lo = m + 1;
            } else {
                hi = m;
            }
        }
        return lo;
    }

    /** The keys radix sorted by their start bits (in {@code keys} or {@code scratch}). */
    private long[] radixSorted(int n, int indexBits, int spanBits) {
        long[] src = keys;
        long[] dst = scratch;
        for (int shift = indexBits; shift < indexBits + spanBits; shift += DIGIT_BITS) {
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[(int) (src[i] >>> shift) & (RADIX - 1)]++;
            }
            if (counts[(int) (src[0] >>> shift) & (RADIX - 1)] == n) {
                continue; // every key has this digit: the pass would move nothing
            }
            int at = 0;
            for (int d = 0; d < RADIX; d++) {
                int c = counts[d];
                counts[d] = at;
                at += c;
            }
            for (int i = 0; i < n; i++) {
                long k = src[i];
                dst[counts[(int) (k >>> shift) & (RADIX - 1)]++] = k;
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }

    private int[] boxed(long[] startUs, int n) {
        Integer[] rows = new Integer[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i;
        }
        Arrays.sort(rows, Comparator.comparingLong((Integer i) -> startUs[i]).thenComparingInt(i -> i));
        for (int i = 0; i < n; i++) {
            order[i] = rows[i];
        }
        return order;
    }
}
