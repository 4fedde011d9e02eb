package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link TpccMix}: every deck holds the mix exactly, and the order within a deck is shuffled. Seeds are fixed. */
class TpccMixTest {

    private static final TpccRandom.Constants C = new TpccRandom.Constants(123, 259, 7911);

    @Test
    void everyHundredTransactionsHoldTheMixExactly() {
        TpccMix mix = new TpccMix(new TpccRandom(7, C));
        for (int deck = 0; deck < 200; deck++) {
            int[] seen = new int[TpccMix.CARDS.length];
            for (int i = 0; i < TpccMix.DECK; i++) {
                seen[mix.next()]++;
            }
            assertThat(seen).as("deck %d", deck).containsExactly(45, 43, 4, 4, 4);
        }
    }

    @Test
    void theCardsAreShuffled_eachPositionDrawsTheTypesInTheirShares() {
        TpccMix mix = new TpccMix(new TpccRandom(11, C));
        int decks = 20_000;
        long[][] byPosition = new long[TpccMix.DECK][TpccMix.CARDS.length];
        Set<String> orders = new HashSet<>();
        for (int deck = 0; deck < decks; deck++) {
            StringBuilder order = new StringBuilder();
            for (int i = 0; i < TpccMix.DECK; i++) {
                int type = mix.next();
                byPosition[i][type]++;
                order.append(type);
            }
            orders.add(order.toString());
        }
        assertThat(orders).as("distinct deck orders").hasSize(decks);
        // at the first, a middle and the last position each type comes up in its share: chi-square, 4 degrees of
        // freedom, below its 99.9% quantile (18.47)
        for (int position : new int[] {0, 50, TpccMix.DECK - 1}) {
            double chi2 = 0;
            for (int type = 0; type < TpccMix.CARDS.length; type++) {
                double expected = decks * TpccMix.share(type);
                double d = byPosition[position][type] - expected;
                chi2 += d * d / expected;
            }
            assertThat(chi2).as("position %d", position).isLessThan(18.47);
        }
    }
}
