package io.sluice.verticles.strategies.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Go's {@code FormatFloat(x, 'g', -1, 64)} and {@code ParseFloat} grammar (spec §5.2, §5.3). */
class GoFloatTest {

  /** The spec's table, verified with Go 1.19. */
  @ParameterizedTest
  @CsvSource({
      "0, 0", "1, 1", "2, 2", "8.5, 8.5", "0.1, 0.1",
      "0.30000000000000004, 0.30000000000000004", "2.9999999999999996, 2.9999999999999996",
      "999999, 999999", "100000, 100000", "99999.5, 99999.5", "123456.5, 123456.5",
      "1e6, 1e+06", "1234567.5, 1.2345675e+06", "1e21, 1e+21", "1e-5, 1e-05", "3.5e-5, 3.5e-05",
      "0.0001, 0.0001"})
  void specTable(double x, String go) {
    assertThat(GoFloat.format(x)).isEqualTo(go);
  }

  /**
   * Values whose Java 17 {@code Double.toString} is not the shortest (JDK-4511638), or whose JDK 19+
   * text prefers two digits where Go prints one; Go's answers.
   */
  @ParameterizedTest
  @CsvSource({
      "1e23, 1e+23",                                   // Java 17: 9.999999999999999E22
      "2e23, 2e+23",                                   // Java 17: 1.9999999999999998E23
      "0x1p-44, 5.684341886080802e-14",                // Java 17: 5.6843418860808015E-14
      "0x1p56, 7.205759403792794e+16",                 // Java 17: 7.2057594037927936E16
      "0x1p60, 1.152921504606847e+18",                 // Java 17: 1.15292150460684698E18
      "4.9e-324, 5e-324",                              // JDK 19+: 4.9E-324
      "2e-323, 2e-323",                                // JDK 19+: 2.0E-323
      "1.7976931348623157e308, 1.7976931348623157e+308",
      "2.2250738585072012e-308, 2.2250738585072014e-308",
      "1e100, 1e+100", "1.5e-100, 1.5e-100", "-0.0001, -0.0001", "-1234567, -1.234567e+06",
      "-2.5, -2.5", "123456789, 1.23456789e+08", "0.000001, 1e-06", "0.00012345, 0.00012345"})
  void shortestDigitsAndLayout(String literal, String go) {
    double x = Double.parseDouble(literal);
    assertThat(GoFloat.format(x)).isEqualTo(go);
  }

  @Test
  void specialValues() {
    assertThat(GoFloat.format(-0.0)).isEqualTo("-0");
    assertThat(GoFloat.format(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFloat.format(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(GoFloat.format(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
  }

  /** Every output parses back to the same double, and no shorter digit string would (seeded). */
  @Test
  void randomDoublesRoundTripWithTheFewestDigits() {
    SplittableRandom random = new SplittableRandom(19);
    for (int i = 0; i < 20_000; i++) {
      double x = i % 2 == 0 ? Double.longBitsToDouble(random.nextLong())
          : random.nextDouble() * Math.pow(10, random.nextInt(-8, 9));
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        continue;
      }
      String text = GoFloat.format(x);
      assertThat(GoFloat.parse(text)).as(text).isEqualTo(x);
      BigDecimal digits = new BigDecimal(text).stripTrailingZeros();
      if (digits.precision() > 1) {
        BigDecimal shorterDown = digits.round(new MathContext(digits.precision() - 1,
            RoundingMode.DOWN));
        BigDecimal shorterUp = digits.round(new MathContext(digits.precision() - 1,
            RoundingMode.UP));
        assertThat(Double.parseDouble(shorterDown.toString())).as(text).isNotEqualTo(x);
        assertThat(Double.parseDouble(shorterUp.toString())).as(text).isNotEqualTo(x);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({
      "1e+06, 1000000", "1E6, 1000000", ".5, 0.5", "1., 1", "0x1p-2, 0.25", "0X1.8P1, 3",
      "1_000, 1000", "1_000.5_5, 1000.55", "0x_1p0, 1", "+2.5, 2.5", "-2.5, -2.5", "007, 7",
      "1e-400, 0", "4.9e-324, 4.9e-324"})
  void parsesGoSyntax(String text, double expected) {
    assertThat(GoFloat.parse(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "+", ".", "e5", "1e", "1e+", "abc", " 1", "1 ", "1d", "1f", "0x1", "0x1.8", "1.2.3",
      "_1", "1_", "1__0", "1_.5", "1._5", "NaN", "nan", "Inf", "+Inf", "-Inf", "inf", "Infinity",
      "-infinity", "1e400", "-1e400", "0x1p2000", "٣"})
  void refusesWhatGoRefusesAndEveryNonFiniteValue(String text) {
    assertThatThrownBy(() -> GoFloat.parse(text)).isInstanceOf(NumberFormatException.class);
  }
}
