package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.sluice.verticles.engine.routing.ShardRouter;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * How a {@code rate_limit} counts a descriptor's hits: envoyproxy/ratelimit's fixed windows
 * ({@link CountedWindow}, the default), or one of Sluice's strategies ({@link StrategyAlgorithm}),
 * chosen with the Sluice extension fields {@code algorithm}, {@code burst} and {@code window}.
 * Either adds the hits on the shard that owns the descriptor's record and answers a {@link Count}.
 */
sealed interface Algorithm permits CountedWindow, StrategyAlgorithm {

  /** The name a config gives it: {@code fixed_window}, {@code sliding_window}, … */
  String name();

  /** The window's length, or the time a bucket's rate refers to, in whole seconds. */
  long windowSeconds();

  /**
   * Adds {@code hits} (0: only looks) to the descriptor's state on its owner.
   *
   * @param entries the request's entries, which name the state's record
   */
  CompletionStage<Count> count(ShardRouter router, String domain, List<RateLimitDescriptor.Entry> entries, long hits,
                               long nowNanos);

  /**
   * What one descriptor's hits came to, in the terms envoyproxy/ratelimit decides and counts
   * statistics in: the use after the hits, measured against a capacity.
   *
   * @param after             the use after the hits; above {@code capacity} is over the limit
   * @param capacity          what the algorithm admits at once (requests per window, or a bucket's burst)
   * @param secondsUntilReset the answer's {@code duration_until_reset}
   */
  record Count(long after, long capacity, long secondsUntilReset) {
  }
}
