package io.tailstream.producer.workload.tpcc;

import java.util.Arrays;

/**
 * The transaction mix of one terminal, dealt from a shuffled deck of 23 cards: 10 New-Order, 10 Payment and one each
 * of Order-Status, Delivery and Stock-Level (43.5%, 43.5% and 4.3% each), reshuffled once dealt; the proportions
 * HammerDB's TPROC-C and sysbench-tpcc draw at random. Clause 5.2.3 sets minimum shares, Payment 43% and the other
 * three 4% each, and a measurement counts from some card of each terminal's deck to some later card, so a mix at the
 * minimums exactly (45 / 43 / 4 / 4 / 4) falls below one of them in most steps (below each about as often as not);
 * this deck keeps 0.48 and 0.35 points above them, more than its unfinished decks take away once a step holds a few
 * thousand transactions. Every 23 transactions of a terminal hold the mix exactly.
 */
final class TpccMix {

    /** Cards per type in a deck, indexed as {@link TpccSession}'s ops; they sum to {@link #DECK}. */
    static final int[] CARDS = {10, 10, 1, 1, 1};
    static final int DECK = 23;

    private final TpccRandom random;
    private final int[] deck;
    private int dealt;

    TpccMix(TpccRandom random) {
        this(random, CARDS);
    }

    /** A terminal's mix from a deck of other proportions: {@code cards[type]} cards of each type. */
    TpccMix(TpccRandom random, int... cards) {
        this.random = random;
        this.deck = new int[Arrays.stream(cards).sum()];
        int at = 0;
        for (int type = 0; type < cards.length; type++) {
            for (int i = 0; i < cards[type]; i++) {
                deck[at++] = type;
            }
        }
        dealt = deck.length;
    }

    /** The type of the terminal's next transaction. */
    int next() {
        if (dealt == deck.length) {
            shuffle();
            dealt = 0;
        }
        return deck[dealt++];
    }

    /** The share of {@code type} in the mix. */
    static double share(int type) {
        return CARDS[type] / (double) DECK;
    }

    /** Fisher-Yates: every order of the cards equally likely. */
    private void shuffle() {
        for (int i = deck.length - 1; i > 0; i--) {
            int j = random.uniform(0, i);
            int card = deck[i];
            deck[i] = deck[j];
            deck[j] = card;
        }
    }
}
