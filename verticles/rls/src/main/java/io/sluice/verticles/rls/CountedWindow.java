package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;

import java.util.List;

/**
 * envoyproxy/ratelimit's fixed window: a counter per window, windows starting at multiples of
 * their length since the Unix epoch (the unit's, or a {@code window} of whole seconds), counting on
 * past the limit. The counter is a {@link WindowCounter} record named by {@link CounterKey}.
 *
 * @param windowSeconds  the window's length
 * @param requests       requests a window admits
 */
record CountedWindow(long windowSeconds, long requests) implements Algorithm {

  static final String NAME = "fixed_window";

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String describe(long requestsPerUnit, WindowUnit unit) {
    return Algorithm.rate(requestsPerUnit, unit, windowSeconds);
  }

  @Override
  public byte[] recordKey(String domain, List<RateLimitDescriptor.Entry> entries, List<String> shared, long nowNanos) {
    return CounterKey.of(domain, entries, shared, Long.toString(windowStart(Math.floorDiv(nowNanos, NANOS_PER_SECOND))));
  }

  @Override
  public CountTask task(byte[] recordKey, long hits, long nowNanos) {
    long nowSeconds = Math.floorDiv(nowNanos, NANOS_PER_SECOND);
    long windowEnd = (windowStart(nowSeconds) + windowSeconds) * NANOS_PER_SECOND;
    return new WindowCounter(recordKey, hits, windowEnd, requests, secondsUntilReset(nowSeconds));
  }

  @Override
  public Count overFromCache(long hits, long nowNanos) {
    return new Count(requests + Math.max(hits, 1), requests, secondsUntilReset(Math.floorDiv(nowNanos, NANOS_PER_SECOND)), 0, true);
  }

  /** The window holding {@code epochSecond}: its start, in seconds since the epoch. */
  long windowStart(long epochSecond) {
    return epochSecond - Math.floorMod(epochSecond, windowSeconds);
  }

  /** Whole seconds from {@code epochSecond} to the end of its window: 1 to the window's length. */
  long secondsUntilReset(long epochSecond) {
    return windowSeconds - Math.floorMod(epochSecond, windowSeconds);
  }
}
