package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.encoding.StateFormat;

/**
 * Generic cell rate algorithm (spec §3.4). Emission interval {@code T = ⌊1e9 / rate⌋} ns, tolerance
 * {@code τ = ⌊burst × T⌋} ns. State {@code 42|<tatNs>}: the theoretical arrival time.
 *
 * <p>Allow: a fresh key has TAT = now; {@code newTAT = max(TAT, now) + T × cost}; admitted when
 * {@code newTAT − now ≤ τ}, then TAT = newTAT, remaining = {@link #remaining}, reset = newTAT + τ.
 * Denied: remaining 0, reset = newTAT, nothing written; the retry-after is the real wait
 * {@code TAT + T × cost − τ − now}, which upstream does not report. Peek: remaining of the stored
 * TAT, allowed if positive, reset = TAT + τ (fresh: burst and now + τ).
 */
public final class Gcra extends BucketStrategy {

  public static final String NAME = "gcra";

  private final long emissionNs;
  private final long toleranceNs;

  /** @throws IllegalArgumentException if the rate exceeds 1e9/s or τ does not fit in int64 ns */
  public Gcra(BucketPolicy policy) {
    super(NAME, StateFormat.GCRA, policy);
    this.emissionNs = (long) (1e9 / policy.rate());
    if (emissionNs < 1) {
      throw new IllegalArgumentException("GCRA rate must be at most 1e9 per second, was " + policy.rate());
    }
    double tolerance = (double) policy.burst() * (double) emissionNs;
    if (tolerance >= 0x1p63) {
      throw new IllegalArgumentException("GCRA burst / rate too large: tolerance exceeds 292 years");
    }
    this.toleranceNs = (long) tolerance;
  }

  /** T, the emission interval in nanoseconds. */
  public long emissionNs() {
    return emissionNs;
  }

  /** τ, the burst tolerance in nanoseconds. */
  public long toleranceNs() {
    return toleranceNs;
  }

  @Override
  public int maxStateLength() {
    return header().length() + StateFormat.MAX_INT64_LENGTH;
  }

  @Override
  Outcome decide(String state, long nowNs, long cost) {
    long tat = state == null ? nowNs : decode(state);
    long increment = Nanos.mul(emissionNs, cost);
    long newTat = Nanos.add(Math.max(tat, nowNs), increment);
    if (Nanos.sub(newTat, nowNs) <= toleranceNs) {
      return Outcome.write(decision(true, remaining(newTat, nowNs), Nanos.add(newTat, toleranceNs), 0),
          header() + newTat, ttl());
    }
    long retryAfter = increment > toleranceNs
        ? Result.NEVER
        : Nanos.sub(Nanos.sub(Nanos.add(tat, increment), toleranceNs), nowNs);
    return Outcome.unchanged(decision(false, 0, newTat, retryAfter));
  }

  @Override
  public Decision peek(String state, long nowNs) {
    if (state == null) {
      return decision(true, policy().burst(), Nanos.add(nowNs, toleranceNs), 0);
    }
    long tat = decode(state);
    long remaining = remaining(tat, nowNs);
    boolean allowed = remaining > 0;
    long retryAfter = allowed ? 0
        : Math.max(0, Nanos.sub(Nanos.sub(Nanos.add(tat, emissionNs), toleranceNs), nowNs));
    return decision(allowed, remaining, Nanos.add(tat, toleranceNs), retryAfter);
  }

  /** Upstream's {@code calculateRemaining}: requests that fit before the TAT runs τ ahead of now. */
  long remaining(long tat, long nowNs) {
    if (nowNs > tat) {
      return policy().burst();
    }
    long behind = Nanos.sub(tat, nowNs);
    if (behind >= toleranceNs) {
      return 0;
    }
    return Math.min((toleranceNs - behind) / emissionNs, policy().burst());
  }

  private long decode(String state) {
    return StateFormat.Fields.open(state, header(), name()).restLong();
  }
}
