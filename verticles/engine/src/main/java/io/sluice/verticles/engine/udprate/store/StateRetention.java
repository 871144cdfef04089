package io.sluice.verticles.engine.udprate.store;

import io.sluice.verticles.engine.udprate.rate.RateState;

/**
 * How long an idle key's rate state is kept. The original never forgot a key (it relied on being
 * restarted when out of memory); Sluice lets the store drop a state once remembering it can no
 * longer change a verdict.
 *
 * <p>After an idle time {@code T} the next request computes
 * {@code (1 − a) / x + a · rate_last} with {@code x = T / period}, {@code a = e^−x}; a forgotten key
 * computes 0 instead. Once {@code x ≥ 10} the first term is below 0.1, and once
 * {@code x ≥ ln(rate_last / 0.05)} the second is below 0.05. So the state is kept for
 *
 * <pre>  max(5 minutes, period · max(10, ln(rate_last / 0.05)))</pre>
 *
 * <p>after it was written: ten periods for ordinary rates, longer for a key hammered far above its
 * limit (a rate a million times the period keeps it about 17 periods). Forgetting it then changes
 * the reported rate by at most 0.15 and the verdict only for limits below 0.15. The five-minute
 * floor matches the statistics bucket.
 */
public final class StateRetention {

  /** The floor: never forget a state sooner than this. */
  public static final double MINIMUM_SECONDS = 300;
  /** Periods after which the {@code (1 − a) / x} term is below 0.1. */
  public static final double MINIMUM_PERIODS = 10;
  /** Residual stored rate treated as gone. */
  public static final double NEGLIGIBLE_RATE = 0.05;

  private StateRetention() {
  }

  /** The TTL to store {@code state} with, for a key whose rule has the given period. */
  public static long ttlMillis(RateState state, double periodSeconds) {
    double periods = Math.max(MINIMUM_PERIODS, Math.log(state.rate() / NEGLIGIBLE_RATE));
    double seconds = periodSeconds * periods;
    if (!(seconds >= MINIMUM_SECONDS)) {
      seconds = MINIMUM_SECONDS;
    }
    return seconds >= Long.MAX_VALUE / 1000.0 ? Long.MAX_VALUE : (long) Math.ceil(seconds * 1000);
  }
}
