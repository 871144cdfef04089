package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.sluice.verticles.yaml.DurationText;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How a {@code rate_limit} counts a descriptor's hits: envoyproxy/ratelimit's fixed windows
 * ({@link CountedWindow}, the default), or one of Sluice's strategies ({@link StrategyAlgorithm}),
 * chosen with the Sluice extension fields {@code algorithm}, {@code burst} and {@code window}.
 * Either makes the {@link CountTask} that adds the hits on the shard owning the descriptor's record and answers a {@link Count}.
 */
sealed interface Algorithm permits CountedWindow, StrategyAlgorithm {

  /** The name a config gives it: {@code fixed_window}, {@code sliding_window}, … */
  String name();

  /** The window's length, or the time a bucket's rate refers to, in whole seconds. */
  long windowSeconds();

  /** For people: {@code 10 per minute}, {@code 100 per 15m, sliding_window}, {@code 5 per second, token_bucket, burst 20}. */
  String describe(long requestsPerUnit, WindowUnit unit);

  /** {@code <requests> per <the unit, or the window when it is another length>}. */
  static String rate(long requestsPerUnit, WindowUnit unit, long windowSeconds) {
    return requestsPerUnit + " per " + (windowSeconds == unit.seconds() ? unit.name().toLowerCase(Locale.ROOT)
        : DurationText.format(Duration.ofSeconds(windowSeconds)));
  }

  /**
   * The record that keeps the descriptor's state at {@code nowNanos}, named by the request's entries
   * ({@code shared}: per entry, the {@code share_threshold} wildcard standing for its value, see
   * {@link CounterKey#of}).
   */
  byte[] recordKey(String domain, List<RateLimitDescriptor.Entry> entries, List<String> shared, long nowNanos);

  /** The task that adds {@code hits} (0: only looks) to the state in {@code recordKey}, on its owner. */
  CountTask task(byte[] recordKey, long hits, long nowNanos);

  /**
   * The count of hits answered from the {@link OverLimitCache}: all over the limit, and over even
   * for 0 hits (a look), as the record is.
   */
  Count overFromCache(long hits, long nowNanos);

  /**
   * What one descriptor's hits came to, in the terms envoyproxy/ratelimit decides and counts
   * statistics in: the use after the hits, measured against a capacity.
   *
   * @param after             the use after the hits; above {@code capacity} is over the limit
   * @param capacity          what the algorithm admits at once (requests per window, or a bucket's burst)
   * @param secondsUntilReset the answer's {@code duration_until_reset}
   * @param overUntilNanos    when over, until when any request of the descriptor stays over (what
   *                          the {@link OverLimitCache} may remember); 0 when that is not known
   * @param fromLocalCache    answered by the {@link OverLimitCache}, without asking the shard
   */
  record Count(long after, long capacity, long secondsUntilReset, long overUntilNanos, boolean fromLocalCache) {

    /** A count the shard answered. */
    Count(long after, long capacity, long secondsUntilReset, long overUntilNanos) {
      this(after, capacity, secondsUntilReset, overUntilNanos, false);
    }
  }
}
