package io.tailstream.producer.workload.tpcc;

/**
 * The transaction mix of one terminal, dealt from a shuffled deck of 100 cards: 45 New-Order, 43 Payment and 4 each
 * of Order-Status, Delivery and Stock-Level, reshuffled once dealt. Every 100 transactions of a terminal hold the
 * mix exactly, so a measurement's shares differ from it only by the terminals' unfinished decks (at most 100
 * transactions each), where drawing each type at random would leave Payment, whose share is the specification's
 * minimum of 43%, below it in about half the runs.
 */
final class TpccMix {

    /** Cards per type in a deck, indexed as {@link TpccSession}'s ops; they sum to {@link #DECK}. */
    static final int[] CARDS = {45, 43, 4, 4, 4};
    static final int DECK = 100;

    private final TpccRandom random;
    private final int[] deck = new int[DECK];
    private int dealt = DECK;

    TpccMix(TpccRandom random) {
        this.random = random;
        int at = 0;
        for (int type = 0; type < CARDS.length; type++) {
            for (int i = 0; i < CARDS[type]; i++) {
                deck[at++] = type;
            }
        }
    }

    /** The type of the terminal's next transaction. */
    int next() {
        if (dealt == DECK) {
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
        for (int i = DECK - 1; i > 0; i--) {
            int j = random.uniform(0, i);
            int card = deck[i];
            deck[i] = deck[j];
            deck[j] = card;
        }
    }
}
