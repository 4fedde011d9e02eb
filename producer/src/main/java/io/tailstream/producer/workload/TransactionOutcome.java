package io.tailstream.producer.workload;

/**
 * What one transaction did: its op index and the statements it sent. A mutable holder reused by one worker for
 * every transaction, so the hot path allocates nothing. Not thread safe.
 */
public final class TransactionOutcome {

    private int opIndex;
    private int statements;

    /** Clears both fields before a transaction. */
    public void reset() {
        opIndex = 0;
        statements = 0;
    }

    public void op(int index) {
        this.opIndex = index;
    }

    /** Counts one statement as sent: call before executing it, so a failing statement is counted too. */
    public void statement() {
        statements++;
    }

    public int opIndex() {
        return opIndex;
    }

    public int statements() {
        return statements;
    }
}
