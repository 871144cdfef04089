package io.sluice.verticles.engine.udprate.rate;

import io.sluice.verticles.strategies.DecayingRateFormula;

/**
 * One {@code over_limit} use of a key, the original server's {@code do_ratelimit} (spec §4): the
 * rate by {@link DecayingRateFormula} (a new key measures 0), over when {@code rate ≥ limit}, and
 * the state to store: (now, rate) when not over or strict; a non-strict refusal leaves it untouched.
 */
public final class DecayingRateEvaluation {

  /** Each request is one use. */
  private static final double USE = 1;

  private DecayingRateEvaluation() {
  }

  /**
   * @param previous      the stored state of the key, or {@code null} when it has none
   * @param nowSeconds    current wall-clock time, seconds
   * @param limit         events per period at which the key is over
   * @param periodSeconds the period, &gt; 0
   * @param strict        whether refused uses are recorded too (per-user limits) or not (shared,
   *                      "leaky" limits)
   * @throws IllegalArgumentException when the period is not positive (the original died with
   *                                  "Bad period"; rule tables reject such periods when loaded)
   */
  public static RateEvaluation evaluate(RateState previous, double nowSeconds, double limit,
      double periodSeconds, boolean strict) {
    if (!(periodSeconds > 0)) {
      throw new IllegalArgumentException("Bad period: " + periodSeconds);
    }
    if (previous == null) {
      double rate = 0;
      return new RateEvaluation(rate, rate >= limit, new RateState(nowSeconds, rate));
    }
    double rate = DecayingRateFormula.decayed(previous.rate(), nowSeconds - previous.tLastSeconds(),
        periodSeconds, USE);
    boolean over = rate >= limit;
    RateState stateToStore = !over || strict ? new RateState(nowSeconds, rate) : null;
    return new RateEvaluation(rate, over, stateToStore);
  }
}
