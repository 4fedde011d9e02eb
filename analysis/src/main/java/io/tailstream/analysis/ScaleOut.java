package io.tailstream.analysis;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Which targets a scale-out comparison pairs: per workload and database product, each target served by one node
 * against each served by more (a primary, and the same product with read-only nodes), and the ratio of their QPS.
 * The aggregator's run summary and the report both pair targets this way. Stateless and thread safe.
 */
public final class ScaleOut {

    private ScaleOut() {}

    /**
     * A target of one workload as the pairing sees it.
     *
     * @param name    the target's name
     * @param product its database product, or null (paired with the other targets of no product)
     * @param nodes   nodes serving it, or null: a target without a node count takes no part
     */
    public record Target(String name, String product, Integer nodes) {}

    /**
     * A 1-node target and an N-node target of one product.
     *
     * @param product the product ({@code ""} for targets without one)
     * @param single  the target served by one node
     * @param multi   the target served by {@code nodes} nodes
     * @param nodes   the multi target's nodes, more than one
     */
    public record Pair(String product, String single, String multi, int nodes) {}

    /**
     * Every pair among the targets of one workload, ordered by product, then single, then multi target name.
     *
     * @param targets the workload's targets, each name once
     */
    public static List<Pair> pairs(Collection<Target> targets) {
        Map<String, List<Target>> byProduct = new TreeMap<>();
        for (Target t : targets) {
            if (t.nodes() != null) {
                byProduct.computeIfAbsent(Objects.toString(t.product(), ""), p -> new ArrayList<>()).add(t);
            }
        }
        List<Pair> out = new ArrayList<>();
        byProduct.forEach((product, ts) -> {
            ts.sort(Comparator.comparing(Target::name));
            for (Target single : ts) {
                if (single.nodes() != 1) {
                    continue;
                }
                for (Target multi : ts) {
                    if (multi.nodes() > 1) {
                        out.add(new Pair(product, single.name(), multi.name(), multi.nodes()));
                    }
                }
            }
        });
        return out;
    }

    /** N-node QPS / 1-node QPS; 0 when the 1-node QPS is not positive (nothing to scale from). */
    public static double ratio(double multiQps, double singleQps) {
        return singleQps > 0 ? multiQps / singleQps : 0;
    }
}
