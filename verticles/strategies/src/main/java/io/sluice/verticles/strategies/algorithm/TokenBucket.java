package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;

/**
 * Token bucket (spec §3.1): {@code burst} tokens, refilled continuously at {@code rate} per second;
 * a request takes {@code cost} tokens. State {@code 12|<tokens>|<lastRefillNs>}.
 *
 * <p>Allow: a fresh bucket is full; otherwise it is refilled by
 * {@code elapsedNs × rate / 1e9}, capped at the burst. Admitted when {@code tokens ≥ cost}; then
 * {@code remaining = ⌊tokens − cost⌋}, reset = now. Denied: {@code remaining = ⌊tokens⌋} (0 for
 * cost 1), reset = now + (cost − tokens) / rate, nothing written. Peek refills with Go's
 * {@code elapsed.Seconds() × rate}, reports {@code ⌊tokens⌋}, allowed if that is positive, and
 * reset = now always.
 */
public final class TokenBucket extends BucketStrategy {

  public static final String NAME = "token_bucket";

  public TokenBucket(BucketPolicy policy) {
    super(NAME, StateFormat.TOKEN_BUCKET, policy);
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    Level stored = state == null ? null : decodeLevel(state);
    double tokens = stored == null ? policy().burst() : refill(stored, nowNs);
    if (tokens >= cost) {
      double left = tokens - cost;
      return Outcome.write(decision(true, floor(left), nowNs, 0), encode(new Level(left, nowNs)), ttl());
    }
    return Outcome.unchanged(decision(false, floor(tokens),
        resetTime(nowNs, tokens, policy().rate(), cost), retryAfter(stored, nowNs, cost)));
  }

  @Override
  public Decision peek(String state, long nowNs) {
    if (state == null) {
      return decision(true, policy().burst(), nowNs, 0);
    }
    Level stored = decodeLevel(state);
    double tokens = Math.min(
        stored.value() + Nanos.seconds(Nanos.sub(nowNs, stored.atNs())) * policy().rate(),
        policy().burst());
    long remaining = floor(tokens);
    boolean allowed = remaining > 0;
    return decision(allowed, remaining, nowNs, allowed ? 0 : retryAfter(stored, nowNs, 1));
  }

  /** Upstream's reset of a denial: now if the tokens suffice, else when they will have refilled. */
  static long resetTime(long nowNs, double tokens, double rate, long cost) {
    if (tokens >= cost) {
      return nowNs;
    }
    return Nanos.add(nowNs, Nanos.fromSeconds((cost - tokens) / rate));
  }

  private double refill(Level stored, long nowNs) {
    double added = (double) Nanos.sub(nowNs, stored.atNs()) * policy().rate() / 1e9;
    return Math.min(stored.value() + added, policy().burst());
  }

  /** First instant the allow rule admits {@code cost} against the unchanged stored state. */
  private long retryAfter(Level stored, long nowNs, long cost) {
    if (cost > policy().burst()) {
      return Result.NEVER;
    }
    if (stored == null) {
      return 0;
    }
    long estimate = Nanos.add(stored.atNs(), Nanos.fromSeconds((cost - stored.value()) / policy().rate()));
    return Nanos.waitUntil(nowNs, estimate, t -> refill(stored, t) >= cost);
  }

  private static long floor(double tokens) {
    return Math.max((long) tokens, 0);
  }
}
