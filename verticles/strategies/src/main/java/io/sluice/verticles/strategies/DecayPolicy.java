package io.sluice.verticles.strategies;

import java.time.Duration;
import java.util.Objects;

/**
 * Policy of the exponentially decaying rate (the MusicBrainz rate-limit server's exim-style
 * average, UDP spec §4).
 *
 * @param limit events per period at which a request is "over", finite and above 0
 * @param period the averaging period, positive
 * @param strict whether refused requests are recorded too (per-user limits) or not (shared limits)
 */
public record DecayPolicy(double limit, Duration period, boolean strict) {

  public DecayPolicy {
    Objects.requireNonNull(period, "period");
    if (!(limit > 0) || Double.isInfinite(limit)) {
      throw new IllegalArgumentException("limit must be positive and finite, was " + limit);
    }
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive, was " + period);
    }
    try {
      period.toNanos();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("period too long, was " + period, e);
    }
  }

  /** The period in seconds, as the rate formula uses it. */
  public double periodSeconds() {
    return period.toNanos() / 1e9;
  }
}
