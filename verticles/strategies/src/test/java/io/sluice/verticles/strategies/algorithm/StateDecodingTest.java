package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.WindowPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decoder rejection and leniency tables of spec §5.3 (upstream's {@code internal/state_test.go}
 * examples plus the listed rules), through each strategy's allow and peek: a malformed state is an
 * error naming the strategy, never a fresh start.
 */
class StateDecodingTest {

  private static final Strategy TOKEN = new TokenBucket(new BucketPolicy(10, 1));
  private static final Strategy LEAKY = new LeakyBucket(new BucketPolicy(10, 1));
  private static final Strategy GCRA = new Gcra(new BucketPolicy(10, 1));
  private static final Strategy WINDOW = new FixedWindow(WindowPolicy.of(
      new Quota("quota1", 5, Duration.ofMinutes(1)), new Quota("quota2", 50, Duration.ofHours(1))));

  private static void assertRejected(Strategy strategy, String state) {
    assertThatThrownBy(() -> strategy.allow(state, T0, 1)).as("allow %s", state)
        .isInstanceOfSatisfying(MalformedStateException.class,
            e -> assertThat(e.strategy()).isEqualTo(strategy.name()));
    assertThatThrownBy(() -> strategy.peek(state, T0)).as("peek %s", state)
        .isInstanceOf(MalformedStateException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "v1|123.45|123456789", "12|123.45", "12|abc|123456789", "12|123.45|abc", "", "12", "12|",
      "12|123.45|", "12|1|2|3", "12|1|5|", "12| 1|5", "12|1| 5", "12|1|5 ", "32|1|5",
      "12|NaN|5", "12|Inf|5", "12|+Inf|5", "12|-Inf|5", "12|1e400|5", "12|1|9223372036854775808"})
  void tokenBucketRejects(String state) {
    assertRejected(TOKEN, state);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "v1|123.45|123456789", "32|123.45", "32|abc|123456789", "32|123.45|abc", "", "32|",
      "32|123.45|", "32|1|2|3", "12|1|5", "32|NaN|5", "32|Infinity|5"})
  void leakyBucketRejects(String state) {
    assertRejected(LEAKY, state);
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1|123456789", "", "42|", "42|abc", "42|1|2", "42|1.5", "42| 1", "12|5"})
  void gcraRejects(String state) {
    assertRejected(GCRA, state);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "x2|2|quota1|1|123|quota2|2|456", "23|2|quota1|1", "23|abc|quota1|1|123",
      "23|9|q1|1|1|q2|1|1|q3|1|1|q4|1|1|q5|1|1|q6|1|1|q7|1|1|q8|1|1|q9|1|1", "23|0|quota1|1|123",
      "23|1|quota1|abc|123", "23|1|quota1|1|abc", "", "23|", "23|1|a|1", "23|12|quota1|1|123",
      "23|1|quota1|-1|123", "23|1|quota1|1|123|", "23|1|quota1|1|123|extra|1|2",
      "23|2|quota1|1|123", "23|+|quota1|1|123"})
  void fixedWindowRejects(String state) {
    assertRejected(WINDOW, state);
  }

  @Test
  void tokenBucketLeniencies() {
    Result r = TOKEN.allow("12|0x1p-2|+000" + T0, T0, 1).decision().result("default");
    assertThat(r).isEqualTo(new Result("default", false, 10, 0, T0 + sec(0.75), sec(0.75)));
    assertThat(TOKEN.allow("12|1_0.0|" + T0, T0, 1).newState()).isEqualTo("12|9|" + T0);
    assertThat(TOKEN.allow("12|50|" + T0, T0, 1).newState()).isEqualTo("12|9|" + T0);
    assertThat(TOKEN.allow("12|-3|" + T0, T0 + sec(3), 1).allowed()).isFalse();
  }

  @Test
  void leakyBucketLeniencies() {
    assertThat(LEAKY.allow("32|5.0|" + T0, T0, 1).newState()).isEqualTo("32|6|" + T0);
    assertThat(LEAKY.allow("32|1.|0" + T0, T0, 1).newState()).isEqualTo("32|2|" + T0);
    assertThat(LEAKY.allow("32|-4|" + T0, T0, 1).newState()).isEqualTo("32|1|" + T0);
  }

  @Test
  void gcraLeniencies() {
    assertThat(GCRA.peek("42|+000" + T0, T0).result("default").resetNs()).isEqualTo(T0 + sec(10));
    assertThat(GCRA.allow("42|-5", T0, 1).newState()).isEqualTo("42|" + (T0 + sec(1)));
  }

  @Test
  void fixedWindowLeniencies() {
    // empty and unknown names are ignored; a missing quota is fresh; counts above the limit deny
    String state = "23|3||4|" + T0 + "|other|9|" + T0 + "|quota2|+07|000" + T0;
    assertThat(WINDOW.allow(state, T0, 1).newState())
        .isEqualTo("23|2|quota1|1|" + T0 + "|quota2|8|" + T0);
    assertThat(WINDOW.peek("23|1|quota1|99|" + T0, T0).result("quota1").remaining()).isZero();
    assertThat(WINDOW.peek("23|1|quota1|4|" + T0, T0).result("quota2").remaining()).isEqualTo(50);
  }

  @Test
  void theMinimumLengthIsTen() {
    FixedWindow one = new FixedWindow(WindowPolicy.of(new Quota("a", 5, Duration.ofMinutes(1))));
    assertThatThrownBy(() -> one.peek("23|1||1|1", T0)).isInstanceOf(MalformedStateException.class);
    assertThat(one.peek("23|1|a|1|1", T0).result("a").remaining()).isEqualTo(5);
    assertThat(one.peek("23|1||1|" + T0, T0).result("a").remaining()).isEqualTo(5);
  }

  @Test
  void everyStrategyRefusesTheOthersStates() {
    List<String> states = List.of("12|1|5", "23|1|quota1|1|5", "32|1|5", "42|5", "51|$", "61|1|5", "71|1|1|5");
    for (Strategy s : List.of(TOKEN, LEAKY, GCRA, WINDOW)) {
      for (String state : states) {
        boolean own = state.startsWith(switch (s.name()) {
          case "token_bucket" -> "12|";
          case "leaky_bucket" -> "32|";
          case "gcra" -> "42|";
          default -> "23|";
        });
        if (!own) {
          assertRejected(s, state);
        }
      }
    }
  }
}
