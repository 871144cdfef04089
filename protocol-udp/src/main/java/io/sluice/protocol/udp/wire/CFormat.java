package io.sluice.protocol.udp.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Number formatting exactly as C's (and Perl's) {@code printf}, which the replies of the original
 * server are made with.
 *
 * <p>Java's {@code String.format("%.1f")} rounds the <em>decimal</em> rendering half-up, so it
 * prints {@code 0.35} as {@code 0.4}; C rounds the <em>exact binary value</em> of the double
 * (0.34999999999999997779…) and prints {@code 0.3}. Ties that really are ties in binary
 * ({@code 0.25}) go to even ({@code 0.2}).
 */
public final class CFormat {

  /** Below this the exact product by ten and its rounding fit in a double and a long (see {@link #roundedTenths}). */
  private static final double FAST_LIMIT = 1e14;

  private CFormat() {
  }

  /**
   * {@code printf("%.1f", x)}: the exact value of {@code x} rounded to one decimal, ties to even.
   * The sign of negative values (and of negative zero) is kept, as C does ({@code -0.04} prints
   * {@code -0.0}). Infinities and NaN print as Perl prints them: {@code Inf}, {@code -Inf},
   * {@code NaN}.
   */
  public static String oneDecimal(double x) {
    if (Double.isNaN(x)) {
      return "NaN";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "Inf" : "-Inf";
    }
    boolean negative = x < 0 || (x == 0 && 1 / x < 0);
    double magnitude = Math.abs(x);
    String digits = magnitude < FAST_LIMIT
        ? tenthsText(roundedTenths(magnitude))
        : new BigDecimal(magnitude).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
    return negative ? "-" + digits : digits;
  }

  /**
   * The exact value of {@code 10 · magnitude} rounded to an integer, ties to even, without
   * BigDecimal (every UDP reply formats two numbers; BigDecimal was 8% of the endpoint's CPU).
   * {@code product + error} is the exact product (the error of a multiplication is itself a
   * double, which fused multiply-add gives exactly); {@code fraction} is exact too (subtracting
   * the floor of a double loses nothing). The fraction is a multiple of the product's ulp and the
   * error is at most half an ulp, so only a fraction of exactly one half needs the error to decide.
   */
  private static long roundedTenths(double magnitude) {
    double product = magnitude * 10;
    double error = Math.fma(magnitude, 10, -product);
    double floor = Math.floor(product);
    double fraction = product - floor;
    long tenths = (long) floor;
    if (fraction > 0.5 || (fraction == 0.5 && (error > 0 || (error == 0 && (tenths & 1) == 1)))) {
      tenths++;
    }
    return tenths;
  }

  private static String tenthsText(long tenths) {
    return (tenths / 10) + "." + (tenths % 10);
  }

  /**
   * {@code printf("%d", x)} of a floating-point value: the integer part, truncated toward zero
   * ({@code 19.99} → {@code 19}). Values beyond the range of a long saturate; NaN gives 0.
   */
  public static long truncate(double x) {
    return (long) x;
  }
}
