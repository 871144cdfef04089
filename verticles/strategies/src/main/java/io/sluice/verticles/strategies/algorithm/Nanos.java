package io.sluice.verticles.strategies.algorithm;

import io.sluice.verticles.strategies.Result;
import java.time.Duration;
import java.util.function.LongPredicate;

/** Time arithmetic on epoch nanoseconds, with Go's {@code time} semantics where upstream uses them. */
final class Nanos {

  static final long SECOND = 1_000_000_000L;

  private Nanos() {
  }

  /** {@code a - b}, saturating like Go's {@code Time.Sub}. */
  static long sub(long a, long b) {
    long d = a - b;
    if (((a ^ b) & (a ^ d)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return d;
  }

  /** {@code a + b}, saturating. */
  static long add(long a, long b) {
    long s = a + b;
    if (((a ^ s) & (b ^ s)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return s;
  }

  /** {@code a * b} for non-negative operands, saturating. */
  static long mul(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return (high != 0 || low < 0) ? Long.MAX_VALUE : low;
  }

  /** Go's {@code Duration.Seconds()}: whole and fractional seconds converted separately. */
  static double seconds(long d) {
    return (double) (d / SECOND) + (double) (d % SECOND) / 1e9;
  }

  /** Go's {@code time.Duration(s * float64(time.Second))}: truncation toward zero. */
  static long fromSeconds(double s) {
    return (long) (s * 1e9);
  }

  /**
   * Upstream's {@code CalcExpiration} for the buckets and GCRA (spec §2.5): {@code burst / rate × 5}
   * seconds, at least 1, truncated to whole seconds.
   */
  static Duration bucketTtl(long burst, double rate) {
    double seconds = (double) burst / rate * 5;
    if (seconds < 1) {
      seconds = 1;
    }
    return Duration.ofSeconds((long) seconds);
  }

  /**
   * The wait from {@code now} until {@code admits} first holds: 0 if it holds now, else the least
   * t &gt; now found by growing from {@code estimate} and bisecting. {@code admits} must be monotone
   * (once true, true for every later instant); {@link Result#NEVER} if it never holds.
   */
  static long waitUntil(long now, long estimate, LongPredicate admits) {
    if (admits.test(now)) {
      return 0;
    }
    long denied = now;
    long hi = Math.max(estimate, add(now, 1));
    long step = 1;
    while (!admits.test(hi)) {
      if (hi == Long.MAX_VALUE) {
        return Result.NEVER;
      }
      denied = hi;
      hi = add(hi, step);
      step = mul(step, 2);
    }
    while (sub(hi, denied) > 1) {
      long mid = denied + sub(hi, denied) / 2;
      if (admits.test(mid)) {
        hi = mid;
      } else {
        denied = mid;
      }
    }
    return sub(hi, now);
  }
}
