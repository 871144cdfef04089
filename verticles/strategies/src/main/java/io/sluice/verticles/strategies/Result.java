package io.sluice.verticles.strategies;

import java.util.Objects;

/**
 * What one limit reports: a bucket's single limit (named {@code default}), one quota of a fixed
 * window (named after the quota), or either prefixed {@code primary_}/{@code secondary_} in a
 * composite. {@code allowed}, {@code remaining} and {@code resetNs} follow upstream exactly (spec
 * §3, §4); {@code limit} and {@code retryAfterNs} are Sluice additions that upstream does not
 * report.
 *
 * @param name the limit's name
 * @param allowed whether this limit admits the request
 * @param limit the configured size: burst for the buckets and GCRA, the quota's limit, the rounded-up
 *     rate limit for the decaying rate
 * @param remaining requests left, as upstream computes it (never negative)
 * @param resetNs the instant upstream reports as "reset", epoch nanoseconds (its meaning differs per
 *     strategy, see the package documentation)
 * @param retryAfterNs 0 when allowed; otherwise the nanoseconds until the same request would first be
 *     admitted by this limit against the stored state, or {@link #NEVER} when its cost exceeds the
 *     limit's capacity
 */
public record Result(
    String name, boolean allowed, long limit, long remaining, long resetNs, long retryAfterNs) {

  /** The name of a single-limit strategy's result. */
  public static final String DEFAULT = "default";

  /** Retry-after of a request that no wait can admit (its cost exceeds the capacity). */
  public static final long NEVER = Long.MAX_VALUE;

  public Result {
    Objects.requireNonNull(name, "name");
    if (remaining < 0) {
      throw new IllegalArgumentException("remaining must not be negative, was " + remaining);
    }
    if (retryAfterNs < 0 || (allowed && retryAfterNs != 0)) {
      throw new IllegalArgumentException(
          "retry-after must be 0 when allowed and never negative, was " + retryAfterNs);
    }
  }

  /** The same result under another name (the composite adds its prefixes this way). */
  public Result named(String newName) {
    return new Result(newName, allowed, limit, remaining, resetNs, retryAfterNs);
  }
}
