package io.sluice.verticles.strategies.encoding;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Go's float text for float64 — {@code strconv.FormatFloat(x, 'g', -1, 64)} and the grammar of
 * {@code strconv.ParseFloat(s, 64)} — so states are byte-identical with Go writers on a shared
 * store (spec §5.2).
 *
 * <h2>Shortest digits</h2>
 * Go prints the shortest digit string that parses back to the same double and, among several of
 * that length, the one closest to the exact binary value (ties to an even last digit). Java 17's
 * {@code Double.toString} is not always shortest (JDK-4511638, fixed in JDK 19), and JDK 19+ still
 * differs from Go when one digit suffices (it then prefers a closer two-digit string:
 * {@code 4.9E-324} against Go's {@code 5e-324}). So the digits are searched directly:
 * <ol>
 *   <li>for p = 1, 2, …, 17, take the two p-digit decimals nearest the exact value, one truncated
 *       ({@code RoundingMode.DOWN}) and one rounded away from zero ({@code UP});
 *   <li>keep those that parse back to x ({@code Double.parseDouble} rounds correctly);
 *   <li>the first p that keeps one wins; if it keeps both, the closer one, ties to the even digit.
 * </ol>
 * Why this is Go's answer: the decimals that parse back to x form an interval containing x. If any
 * p-digit decimal d ≥ x is in it, so is the round-up candidate, which lies between x and d (same
 * below x with the truncated one). So the first p at which a candidate survives is the shortest
 * length, and the closest decimal of that length is one of the two candidates. Seventeen
 * significant digits always round-trip a double, so the search ends.
 *
 * <p>Cost: up to 34 BigDecimal roundings and parses, a few microseconds for a 17-digit value.
 * Integral values below 10^6 — most stored tokens and levels — skip the search.
 *
 * <h2>Layout ('g' with shortest precision)</h2>
 * With digits d1…dn and decimal exponent e (x = d1.d2…dn × 10^e): exponent form when e &lt; −4 or
 * e ≥ 6 — {@code d1[.d2…dn]e±XX}, at least two exponent digits — else plain, no trailing zeros
 * and never a trailing ".0". Zero is {@code 0} (or {@code -0}); NaN and infinities print as Go
 * does ({@code NaN}, {@code +Inf}, {@code -Inf}), though no encoder ever writes them.
 */
public final class GoFloat {

  private GoFloat() {
  }

  /** {@code strconv.FormatFloat(x, 'g', -1, 64)}. */
  public static String format(double x) {
    if (Double.isNaN(x)) {
      return "NaN";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "+Inf" : "-Inf";
    }
    if (x == 0) {
      return Double.doubleToRawLongBits(x) < 0 ? "-0" : "0";
    }
    if (x == Math.rint(x) && Math.abs(x) < 1e6) {
      return Long.toString((long) x);
    }
    BigDecimal shortest = shortestDigits(x).stripTrailingZeros();
    String digits = shortest.unscaledValue().abs().toString();
    int pointPosition = digits.length() - shortest.scale();
    return layout(x < 0, digits, pointPosition);
  }

  /** The shortest decimal that parses back to x, closest to x among those (ties to even). */
  static BigDecimal shortestDigits(double x) {
    BigDecimal exact = new BigDecimal(x);
    for (int p = 1; p <= 17; p++) {
      BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
      BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
      boolean downOk = parsesBackTo(down, x);
      boolean upOk = parsesBackTo(up, x);
      if (downOk && upOk) {
        int cmp = exact.subtract(down).abs().compareTo(up.subtract(exact).abs());
        if (cmp < 0 || (cmp == 0 && !down.unscaledValue().testBit(0))) {
          return down;
        }
        return up;
      }
      if (downOk) {
        return down;
      }
      if (upOk) {
        return up;
      }
    }
    throw new AssertionError("17 significant digits always round-trip a double: " + x);
  }

  private static boolean parsesBackTo(BigDecimal candidate, double x) {
    return Double.doubleToLongBits(Double.parseDouble(candidate.toString()))
        == Double.doubleToLongBits(x);
  }

  /**
   * Go's 'g' layout for shortest precision; {@code pointPosition} places the decimal point
   * (x = 0.d1d2…dn × 10^pointPosition).
   */
  private static String layout(boolean negative, String digits, int pointPosition) {
    StringBuilder out = new StringBuilder(digits.length() + 8);
    if (negative) {
      out.append('-');
    }
    int n = digits.length();
    int exponent = pointPosition - 1;
    if (exponent < -4 || exponent >= 6) {
      out.append(digits.charAt(0));
      if (n > 1) {
        out.append('.').append(digits, 1, n);
      }
      out.append('e').append(exponent < 0 ? '-' : '+');
      int magnitude = Math.abs(exponent);
      if (magnitude < 10) {
        out.append('0');
      }
      out.append(magnitude);
      return out.toString();
    }
    if (pointPosition <= 0) {
      out.append('0');
    } else {
      for (int i = 0; i < pointPosition; i++) {
        out.append(i < n ? digits.charAt(i) : '0');
      }
    }
    int decimals = Math.max(n - pointPosition, 0);
    if (decimals > 0) {
      out.append('.');
      for (int i = 0; i < decimals; i++) {
        int index = pointPosition + i;
        out.append(index >= 0 && index < n ? digits.charAt(index) : '0');
      }
    }
    return out.toString();
  }

  /**
   * Parses with the grammar of Go's {@code strconv.ParseFloat(s, 64)} — optional sign; decimal
   * mantissa with optional point ({@code .5}, {@code 1.}); optional {@code e} exponent; hexadecimal
   * mantissa after {@code 0x} with a mandatory {@code p} exponent ({@code 0x1p-2}); underscores
   * between digits ({@code 1_000}) — but refuses every non-finite value ({@code NaN}, {@code Inf},
   * {@code Infinity}, and overflow such as {@code 1e400}), which Go would accept or report as a
   * range error. No whitespace, no Java type suffix ({@code 1d}).
   *
   * @throws NumberFormatException with the reason
   */
  public static double parse(String s) {
    String lower = s.toLowerCase(Locale.ROOT);
    String unsigned = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
    if (unsigned.equals("inf") || unsigned.equals("infinity") || unsigned.equals("nan")) {
      throw new NumberFormatException("non-finite value '" + s + "'");
    }
    int n = s.length();
    int i = 0;
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    boolean hex = i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X');
    if (hex) {
      i += 2;
    }
    boolean underscores = false;
    boolean sawDot = false;
    boolean sawDigits = false;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c == '_') {
        underscores = true;
      } else if (c == '.') {
        if (sawDot) {
          break;
        }
        sawDot = true;
      } else if (isDigit(c) || (hex && isHexLetter(c))) {
        sawDigits = true;
      } else {
        break;
      }
    }
    if (!sawDigits) {
      throw new NumberFormatException("no digits in '" + s + "'");
    }
    char exponentMark = hex ? 'p' : 'e';
    if (i < n && Character.toLowerCase(s.charAt(i)) == exponentMark) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      if (i >= n || !isDigit(s.charAt(i))) {
        throw new NumberFormatException("exponent without digits in '" + s + "'");
      }
      for (; i < n && (isDigit(s.charAt(i)) || s.charAt(i) == '_'); i++) {
        underscores |= s.charAt(i) == '_';
      }
    } else if (hex) {
      throw new NumberFormatException("hexadecimal float without p exponent in '" + s + "'");
    }
    if (i != n) {
      throw new NumberFormatException("unexpected character in '" + s + "'");
    }
    if (underscores && !underscoresBetweenDigits(s)) {
      throw new NumberFormatException("misplaced underscore in '" + s + "'");
    }
    double value = Double.parseDouble(underscores ? s.replace("_", "") : s);
    if (Double.isInfinite(value)) {
      throw new NumberFormatException("out of range '" + s + "'");
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isHexLetter(char c) {
    char l = Character.toLowerCase(c);
    return l >= 'a' && l <= 'f';
  }

  /** Go's {@code underscoreOK}: each underscore sits between digits (or after a base prefix). */
  private static boolean underscoresBetweenDigits(String s) {
    char saw = '^';
    int i = 0;
    if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      s = s.substring(1);
    }
    boolean hex = false;
    if (s.length() >= 2 && s.charAt(0) == '0') {
      char b = Character.toLowerCase(s.charAt(1));
      if (b == 'b' || b == 'o' || b == 'x') {
        i = 2;
        saw = '0';
        hex = b == 'x';
      }
    }
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isDigit(c) || (hex && isHexLetter(c))) {
        saw = '0';
        continue;
      }
      if (c == '_') {
        if (saw != '0') {
          return false;
        }
        saw = '_';
        continue;
      }
      if (saw == '_') {
        return false;
      }
      saw = '!';
    }
    return saw != '_';
  }
}
