package io.sluice.udp.rate;

/**
 * The exponentially decaying rate of the original server (spec §4; its code credits exim's
 * {@code acl_ratelimit}), as a pure function. The floating point follows the original operation by
 * operation, so results are bit-identical to it:
 *
 * <pre>
 *   new key:   rate = 0, store (now, 0)
 *   otherwise: i = now − t_last; if i ≤ 0 then i = 1e-9
 *              x = i / period; a = exp(−x)
 *              rate = use · (1 − a) / x + a · rate_last        (use = 1)
 *   over = rate ≥ limit
 *   store (now, rate) if not over or strict; otherwise leave the stored state untouched
 * </pre>
 *
 * <p>{@link StrictMath#exp} (fdlibm) is used rather than {@link Math#exp}: the result is then the
 * same on every JVM and CPU (Math.exp may be a platform intrinsic), and it equals glibc's exp on the
 * spec's vectors, including the knife edge where 20 same-instant requests give 11 {@code N} for a
 * 1-second period but 10 for a 10-second one.
 */
public final class DecayingRate {

  /** Clamped interval for identical or backward timestamps. */

  /** Each request is one use. */
  private static final double USE = 1;

  private DecayingRate() {
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
    double rate = io.sluice.strategy.impl.DecayingRate.decayed(previous.rate(), nowSeconds - previous.tLastSeconds(),
        periodSeconds, USE);
    boolean over = rate >= limit;
    RateState stateToStore = !over || strict ? new RateState(nowSeconds, rate) : null;
    return new RateEvaluation(rate, over, stateToStore);
  }
}
