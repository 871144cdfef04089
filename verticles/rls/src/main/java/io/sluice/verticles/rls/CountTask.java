package io.sluice.verticles.rls;

import io.sluice.verticles.engine.shard.ShardTask;

/**
 * A descriptor's hits added on the shard that owns its record, by its {@link Algorithm}: what a
 * {@link CountingRound} carries there, several to a batch, and reads back as a {@link Algorithm.Count}.
 */
sealed interface CountTask extends ShardTask permits WindowCounter, StrategyTask {

  /** What the hits came to, once the task is back from its shard; null when it failed. */
  Algorithm.Count count();

  /** Why it failed on its shard (a record of another kind, or what it threw there), or null. */
  Throwable failure();
}
