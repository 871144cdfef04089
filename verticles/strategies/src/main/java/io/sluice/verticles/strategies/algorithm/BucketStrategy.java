package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;
import java.time.Duration;

/**
 * The token bucket, the leaky bucket and GCRA: a burst and a rate, one {@code default} result
 * whose limit is the burst, and upstream's bucket TTL. The only strategies a composite takes as
 * its secondary.
 */
public abstract class BucketStrategy extends PolicyStrategy<BucketPolicy> {

  BucketStrategy(String name, String header, BucketPolicy policy) {
    super(name, header, policy);
  }

  /** A stored level, {@code <value>|<atNs>}, as the token and leaky buckets keep; GCRA keeps less. */
  @Override
  public int maxStateLength() {
    return Level.maxLength(header());
  }

  /** Upstream's {@code CalcExpiration}, the same for every bucket: see {@link Nanos#bucketTtl}. */
  final Duration ttl() {
    return Nanos.bucketTtl(policy().burst(), policy().rate());
  }

  /** The one {@code default} result of a bucket, its limit the burst. */
  final Decision decision(boolean allowed, long remaining, long resetNs, long retryAfterNs) {
    return Decision.of(new Result(Result.DEFAULT, allowed, policy().burst(), remaining, resetNs, retryAfterNs));
  }
}
