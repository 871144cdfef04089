package io.sluice.udp.wire;

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
    String magnitude = new BigDecimal(Math.abs(x)).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
    return negative ? "-" + magnitude : magnitude;
  }

  /**
   * {@code printf("%d", x)} of a floating-point value: the integer part, truncated toward zero
   * ({@code 19.99} → {@code 19}). Values beyond the range of a long saturate; NaN gives 0.
   */
  public static long truncate(double x) {
    return (long) x;
  }
}
