package io.sluice.verticles.strategies;

/**
 * Policy of the token bucket, the leaky bucket and GCRA (upstream's {@code Config{Burst, Rate}}).
 *
 * @param burst bucket capacity / queue size / burst tolerance in requests, at least 1
 * @param rate refill, leak or emission rate in requests per second, finite and above 0
 */
public record BucketPolicy(long burst, double rate) {

  public BucketPolicy {
    if (burst <= 0) {
      throw new IllegalArgumentException("burst must be positive, was " + burst);
    }
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("rate must be positive and finite, was " + rate);
    }
  }
}
