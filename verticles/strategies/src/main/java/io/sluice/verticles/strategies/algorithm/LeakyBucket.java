package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.encoding.StateFormat;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;

/**
 * Leaky bucket (spec §3.3): a queue of at most {@code burst} requests draining at {@code rate} per
 * second; a request adds {@code cost}. State {@code 32|<requests>|<lastLeakNs>}.
 *
 * <p>Allow: a fresh bucket is empty; otherwise it leaks {@code elapsedNs × rate / 1e9}, never below
 * 0. Admitted when {@code level + cost ≤ burst}; then {@code remaining = burst − ⌊level + cost⌋},
 * reset = now. Denied: {@code remaining = burst − ⌊level⌋}, reset = now while {@code level < burst},
 * else now + (level − burst + cost) / rate; nothing written. Peek leaks with Go's
 * {@code elapsed.Seconds() × rate}, allowed if {@code burst − ⌊level⌋} is positive, reset = now.
 *
 * <p>Upstream quirk kept: with a fractional level just below the burst (2.5 of 3) Allow denies yet
 * reports 1 remaining and reset = now, and Peek says allowed. The retry-after is honest (0.5 s at
 * rate 1 in that example).
 */
public final class LeakyBucket extends BucketStrategy {

  public static final String NAME = "leaky_bucket";

  public LeakyBucket(BucketPolicy policy) {
    super(NAME, StateFormat.LEAKY_BUCKET, policy);
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    Level stored = state == null ? null : decodeLevel(state);
    double level = stored == null ? 0 : leak(stored, nowNs);
    if (level + cost <= policy().burst()) {
      double after = level + cost;
      return Outcome.write(decision(true, remaining(after), nowNs, 0), encode(new Level(after, nowNs)), ttl());
    }
    return Outcome.unchanged(decision(false, remaining(level),
        resetTime(nowNs, level, policy().burst(), policy().rate(), cost), retryAfter(stored, nowNs, cost)));
  }

  @Override
  public Decision peek(String state, long nowNs) {
    if (state == null) {
      return decision(true, policy().burst(), nowNs, 0);
    }
    Level stored = decodeLevel(state);
    double level = Math.max(0.0,
        stored.value() - Nanos.seconds(Nanos.sub(nowNs, stored.atNs())) * policy().rate());
    long remaining = remaining(level);
    boolean allowed = remaining > 0;
    return decision(allowed, remaining, nowNs, allowed ? 0 : retryAfter(stored, nowNs, 1));
  }

  /** Upstream's reset of a denial: now while below the burst, else when enough has leaked. */
  static long resetTime(long nowNs, double level, long burst, double rate, long cost) {
    if (level < burst) {
      return nowNs;
    }
    return Nanos.add(nowNs, Nanos.fromSeconds((level - burst + cost) / rate));
  }

  private double leak(Level stored, long nowNs) {
    double leaked = (double) Nanos.sub(nowNs, stored.atNs()) * policy().rate() / 1e9;
    return Math.max(0.0, stored.value() - leaked);
  }

  private long remaining(double level) {
    return Math.max(policy().burst() - (long) level, 0);
  }

  /** First instant the allow rule admits {@code cost} against the unchanged stored state. */
  private long retryAfter(Level stored, long nowNs, long cost) {
    if (cost > policy().burst()) {
      return Result.NEVER;
    }
    if (stored == null) {
      return 0;
    }
    double excess = stored.value() + cost - policy().burst();
    long estimate = Nanos.add(stored.atNs(), Nanos.fromSeconds(excess / policy().rate()));
    return Nanos.waitUntil(nowNs, estimate, t -> leak(stored, t) + cost <= policy().burst());
  }
}
