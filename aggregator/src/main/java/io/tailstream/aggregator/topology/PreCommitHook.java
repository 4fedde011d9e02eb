package io.tailstream.aggregator.topology;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorNode;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * Runs a processor's action each time its task prepares a commit, before the task's output is flushed and its input
 * offsets are committed (in the same transaction under exactly-once), with the processor as the current node so the
 * action may {@code forward}. It is what lets stage 1 keep a heap combiner (see {@link PartialCombiner}): whatever
 * the records of a transaction contributed is sent in that transaction, so a crash either commits both or neither.
 *
 * <p>Kafka Streams has no public pre-commit callback for processors. Its record caches get one: a task's
 * {@code prepareCommit} calls {@code flushCache()} on every registered store implementing the internal
 * {@link CachedStateStore}, and the caches forward their dirty entries downstream from there, which is how
 * {@code KTable}s emit at commit. This store plugs into that same call and nothing else: it holds no data, is not
 * logged and restores nothing. The internal types used are confined to this class; the kill-and-restart integration
 * test ({@code KillRestartIntegrationTest}) and every pipeline test fail if a Kafka upgrade stops making the call,
 * because windows would then never be sent.
 *
 * <p>Not thread safe: a task's stores and processors run on its stream thread.
 */
final class PreCommitHook implements StateStore, CachedStateStore<Void, Void> {

    private final String name;
    private boolean open;
    private Runnable action = () -> { };

    private PreCommitHook(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** A builder for a hook store of this name, to list in the processor supplier's {@code stores()}. */
    static StoreBuilder<PreCommitHook> builder(String name) {
        return new Builder(name);
    }

    /**
     * Registers the action of the processor whose {@code init} is running: the action will run with that
     * processor as current node and an empty record context (timestamp = wall clock, no source offset), as
     * wall-clock punctuations do.
     */
    void onCommit(ProcessorContext<?, ?> context, Runnable commitAction) {
        InternalProcessorContext<?, ?> internal = (InternalProcessorContext<?, ?>) context;
        ProcessorNode<?, ?, ?, ?> node = Objects.requireNonNull(internal.currentNode(),
                "onCommit must be called from the processor's init");
        Objects.requireNonNull(commitAction, "commitAction");
        this.action = () -> {
            ProcessorNode<?, ?, ?, ?> previousNode = internal.currentNode();
            ProcessorRecordContext previousContext = internal.recordContext();
            internal.setCurrentNode(node);
            internal.setRecordContext(new ProcessorRecordContext(context.currentSystemTimeMs(), -1L, -1, null,
                    new RecordHeaders()));
            try {
                commitAction.run();
            } finally {
                internal.setRecordContext(previousContext);
                internal.setCurrentNode(previousNode);
            }
        };
    }

    @Override
    public void flushCache() {
        action.run();
    }

    @Override
    public void clearCache() {
        // a dirty close: the processor's heap state is discarded with it and its input is read again
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Void, Void> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> {
            throw new IllegalStateException("store " + name + " has no changelog to restore");
        });
        open = true;
    }

    @Override
    public void close() {
        open = false;
        action = () -> { };
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    private static final class Builder implements StoreBuilder<PreCommitHook> {
        private final String name;

        Builder(String name) {
            this.name = name;
        }

        @Override
        public StoreBuilder<PreCommitHook> withCachingEnabled() {
            throw new UnsupportedOperationException("the pre-commit hook store has no cache");
        }

        @Override
        public StoreBuilder<PreCommitHook> withCachingDisabled() {
            return this;
        }

        @Override
        public StoreBuilder<PreCommitHook> withLoggingEnabled(Map<String, String> config) {
            throw new UnsupportedOperationException("the pre-commit hook store holds nothing to log");
        }

        @Override
        public StoreBuilder<PreCommitHook> withLoggingDisabled() {
            return this;
        }

        @Override
        public PreCommitHook build() {
            return new PreCommitHook(name);
        }

        @Override
        public Map<String, String> logConfig() {
            return Map.of();
        }

        @Override
        public boolean loggingEnabled() {
            return false;
        }

        @Override
        public String name() {
            return name;
        }
    }
}
