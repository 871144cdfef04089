package io.sluice.protocol.udp.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class CFormatTest {

  @ParameterizedTest(name = "%.1f of {0} is {1}")
  @CsvSource({
      // spec §3: the exact binary value decides, ties to even
      "0.25, 0.2",
      "0.35, 0.3",
      "0.15, 0.1",
      "2.45, 2.5",
      "1e-9, 0.0",
      "22, 22.0",
      "2500, 2500.0",
      "0, 0.0",
      "0.05, 0.1",
      "0.75, 0.8",
      "124.96, 125.0",
      "22.7, 22.7",
      "1e20, 100000000000000000000.0",
  })
  void oneDecimalRoundsTheExactBinaryValue(double value, String expected) {
    assertThat(CFormat.oneDecimal(value)).isEqualTo(expected);
  }

  @Test
  void javasOwnFormatWouldBeWrongOnTheSpecExamples() {
    assertThat(String.format(java.util.Locale.ROOT, "%.1f", 0.35)).isEqualTo("0.4");
    assertThat(CFormat.oneDecimal(0.35)).isEqualTo("0.3");
  }

  @Test
  void negativeValuesKeepTheirSignLikeC() {
    assertThat(CFormat.oneDecimal(-0.04)).isEqualTo("-0.0");
    assertThat(CFormat.oneDecimal(-0.0)).isEqualTo("-0.0");
    assertThat(CFormat.oneDecimal(-2.45)).isEqualTo("-2.5");
  }

  @Test
  void nonFiniteValuesPrintAsPerlDoes() {
    assertThat(CFormat.oneDecimal(Double.POSITIVE_INFINITY)).isEqualTo("Inf");
    assertThat(CFormat.oneDecimal(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(CFormat.oneDecimal(Double.NaN)).isEqualTo("NaN");
  }

  @Test
  void percentDTruncatesTowardZero() {
    assertThat(CFormat.truncate(19.99)).isEqualTo(19);
    assertThat(CFormat.truncate(20)).isEqualTo(20);
    assertThat(CFormat.truncate(0.5)).isZero();
    assertThat(CFormat.truncate(-1.5)).isEqualTo(-1);
    assertThat(CFormat.truncate(1e300)).isEqualTo(Long.MAX_VALUE);
  }

  /** The exact rounding, the slow way: the reference the fast path must equal for every value. */
  private static String exact(double x) {
    return new java.math.BigDecimal(x).setScale(1, java.math.RoundingMode.HALF_EVEN).toPlainString();
  }

  @Test
  void theFastPathEqualsExactRoundingOnTiesNearTiesAndRandomValues() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(20261122);
    java.util.List<Double> values = new java.util.ArrayList<>();
    for (long k = 0; k < 20_000; k++) {
      double tie = k / 10.0 + 0.05;   // x.x5 in decimal: rarely a tie in binary
      double binaryTie = k + 0.25;     // a real tie in binary
      for (double v : new double[] {tie, binaryTie, k + 0.75, k / 4.0, k / 20.0}) {
        values.add(v);
        values.add(Math.nextUp(v));
        values.add(Math.nextDown(v));
      }
    }
    for (int i = 0; i < 200_000; i++) {
      values.add(random.nextDouble() * Math.pow(10, random.nextInt(-6, 15)));
      values.add(Double.longBitsToDouble(random.nextLong(0, Double.doubleToLongBits(1e14))));
    }
    values.add(99_999_999_999_999.95);
    values.add(Math.nextDown(1e14));
    values.add(1e14);
    values.add(Double.MIN_VALUE);
    for (double value : values) {
      if (value < 0) {
        continue; // the sign is C's, tested above; here the digits
      }
      assertThat(CFormat.oneDecimal(value)).as("oneDecimal(%s)", value).isEqualTo(exact(value));
    }
  }
}
