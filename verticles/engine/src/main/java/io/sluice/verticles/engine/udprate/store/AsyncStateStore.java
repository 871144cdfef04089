package io.sluice.verticles.engine.udprate.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@link StateStore} for a store that completes later, e.g. storage shards reached over an event
 * bus, each running the transitions of its keys on its own thread one at a time. The contract per
 * key is the same: read, {@link StateTransition#apply} once, write, atomically.
 *
 * <p>Updates of one key must be applied in the order they were requested (a shard's queue does
 * this), so that a request's stats-only side effects precede its own evaluation, as in the
 * original.
 */
public interface AsyncStateStore {

  /** As {@link StateStore#update}; a failure (or a throwing transition) completes the stage exceptionally. */
  <R> CompletionStage<R> update(String key, StateTransition<R> transition);

  /** Number of keys that have (unexpired) state, across all shards. */
  CompletionStage<Long> size();

  /** Adapts a synchronous store: every stage is already complete when returned. */
  static AsyncStateStore completedFrom(StateStore store) {
    return new AsyncStateStore() {
      @Override
      public <R> CompletionStage<R> update(String key, StateTransition<R> transition) {
        try {
          return CompletableFuture.completedFuture(store.update(key, transition));
        } catch (RuntimeException failure) {
          return CompletableFuture.failedFuture(failure);
        }
      }

      @Override
      public CompletionStage<Long> size() {
        try {
          return CompletableFuture.completedFuture(store.size());
        } catch (RuntimeException failure) {
          return CompletableFuture.failedFuture(failure);
        }
      }
    };
  }
}
