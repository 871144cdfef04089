package io.sluice.verticles.strategies.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.encoding.StateFormat.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Shared fields of the compact format: Go's ParseInt and the float|int64 layout. */
class StateFormatTest {

  @ParameterizedTest
  @CsvSource({
      "0, 0", "+5, 5", "-5, -5", "0007, 7", "+0007, 7", "-0, 0",
      "9223372036854775807, 9223372036854775807", "-9223372036854775808, -9223372036854775808"})
  void parsesGoInt64(String text, long expected) {
    assertThat(StateFormat.parseInt64(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "+", "-", " 1", "1 ", "1.0", "1e3", "0x10", "1_000", "abc", "12a",
      "9223372036854775808", "-9223372036854775809", "99999999999999999999", "٣"})
  void refusesWhatGoParseIntRefuses(String text) {
    assertThatThrownBy(() -> StateFormat.parseInt64(text)).isInstanceOf(NumberFormatException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "12|1.4|1700000001200000000", "12|0|-1", "32|2.5|1700000002500000000",
      "61|1.000000082740371|1700000000000000000", "12|1e-05|5", "12|1.2345675e+06|5"})
  void canonicalLevelsRoundTripByteForByte(String state) {
    String header = state.substring(0, 3);
    assertThat(Level.decode(state, header, "x").encode(header)).isEqualTo(state);
  }

  @Test
  void levelsAcceptGoLeniencies() {
    assertThat(Level.decode("12|0x1p-2|+000123", "12|", "token_bucket")).isEqualTo(new Level(0.25, 123));
    assertThat(Level.decode("12|1e+06|-5", "12|", "token_bucket")).isEqualTo(new Level(1e6, -5));
    assertThat(Level.decode("32|.5|0", "32|", "leaky_bucket")).isEqualTo(new Level(0.5, 0));
    assertThat(Level.decode("32|1.|0", "32|", "leaky_bucket")).isEqualTo(new Level(1, 0));
    assertThat(Level.decode("32|1_0|0", "32|", "leaky_bucket")).isEqualTo(new Level(10, 0));
    assertThat(Level.decode("32|5.0|7", "32|", "leaky_bucket")).isEqualTo(new Level(5, 7));
  }

  @Test
  void anErrorNamesTheStrategyAndKeepsTheState() {
    assertThatThrownBy(() -> Level.decode("12|x|1", "12|", "token_bucket"))
        .isInstanceOfSatisfying(MalformedStateException.class, e -> {
          assertThat(e.strategy()).isEqualTo("token_bucket");
          assertThat(e.state()).isEqualTo("12|x|1");
          assertThat(e.getMessage()).startsWith("failed to parse token_bucket state: invalid encoding");
        });
  }
}
