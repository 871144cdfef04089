package io.sluice.verticles.strategies;

/**
 * The exponentially decaying average rate of the MusicBrainz rate limiter (its code credits exim's
 * {@code acl_ratelimit}; UDP spec §4), in one place for both users: the {@code decaying_rate}
 * strategy of HTTP policies and the UDP engine. The floating point follows the original operation
 * by operation so the UDP replies stay bit-identical to it.
 */
public final class DecayingRateFormula {

  /** What an interval ≤ 0 (equal timestamps, a clock stepping back) counts as, in seconds. */
  public static final double MIN_INTERVAL_SECONDS = 1e-9;

  private DecayingRateFormula() {
  }

  /**
   * The rate in events per period after {@code use} events arrive {@code intervalSeconds} after a
   * measurement of {@code lastRate}: with {@code x = interval / period} and {@code a = exp(−x)},
   * {@code use · (1 − a) / x + a · lastRate}. {@link StrictMath#exp} (fdlibm) rather than
   * {@link Math#exp}, which may be a platform intrinsic: the same bits on every JVM and CPU, and
   * equal to glibc's on the spec's knife-edge inputs (20 same-instant requests give 11 {@code N} for
   * a 1-second period but 10 for a 10-second one).
   */
  public static double decayed(double lastRate, double intervalSeconds, double periodSeconds, double use) {
    double interval = intervalSeconds <= 0 ? MIN_INTERVAL_SECONDS : intervalSeconds;
    double x = interval / periodSeconds;
    double a = StrictMath.exp(-x);
    return use * (1 - a) / x + a * lastRate;
  }
}
