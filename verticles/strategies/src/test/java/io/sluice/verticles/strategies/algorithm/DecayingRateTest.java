package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.algorithm.DecayingRate.Measurement;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Decaying rate: the UDP spec's §13.1 rate tests and §13.2 golden traces (computed by the Perl
 * server with a frozen clock), replayed with nanosecond times; replies are "N"/"Y" and the rate
 * printed like C's {@code %.1f}.
 */
class DecayingRateTest {

  /** Replays requests against one key through {@link DecayingRate#allow}, checking it agrees with measure. */
  private static final class Trace {
    final DecayingRate strategy;
    String state;

    Trace(double limit, long periodSeconds, boolean strict) {
      strategy = new DecayingRate(new DecayPolicy(limit, Duration.ofSeconds(periodSeconds), strict));
    }

    String request(long nowNs) {
      Measurement m = strategy.measure(state, nowNs, 1);
      Outcome o = strategy.allow(state, nowNs, 1);
      assertThat(o.allowed()).isEqualTo(!m.over());
      assertThat(o.changed()).isEqualTo(m.changed());
      if (o.changed()) {
        assertThat(o.newState()).isEqualTo(m.stored().encode("61|"));
        state = o.newState();
      }
      return (m.over() ? "Y " : "N ") + oneDecimal(m.rate());
    }
  }

  /** C's %.1f: the exact binary value rounded half-even. */
  private static String oneDecimal(double x) {
    return new BigDecimal(x).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
  }

  @Test
  void strictTwentyTwoPerTwentySeconds() {
    Trace trace = new Trace(22, 20, true);
    List<String> replies = new ArrayList<>();
    for (int k = 1; k <= 300; k++) {
      replies.add(trace.request(T0 + sec(k - 1)));
    }
    for (int k = 301; k <= 400; k++) {
      replies.add(trace.request(T0 + sec(300) + (k - 301) * 100_000_000L));
    }
    assertThat(replies.subList(0, 6)).containsExactly("N 0.0", "N 1.0", "N 1.9", "N 2.8", "N 3.6", "N 4.4");
    assertThat(replies.subList(295, 301)).containsOnly("N 20.0");
    assertThat(replies.subList(301, 305)).containsExactly("N 20.9", "N 21.8", "Y 22.7", "Y 23.6");
    assertThat(replies.get(309)).isEqualTo("Y 27.9");
    assertThat(replies.get(320)).isEqualTo("Y 37.1");
    assertThat(replies.get(399)).isEqualTo("Y 90.3");
    assertThat(replies.subList(0, 300)).allMatch(r -> r.startsWith("N"));
    assertThat(replies.subList(300, 303)).allMatch(r -> r.startsWith("N"));
    assertThat(replies.subList(303, 400)).allMatch(r -> r.startsWith("Y"));
  }

  @Test
  void nonStrictHundredTwentyFivePerTenSeconds() {
    Trace trace = new Trace(125, 10, false);
    List<String> replies = new ArrayList<>();
    for (int k = 1; k <= 200; k++) {
      replies.add(trace.request(T0 + (k - 1) * 100_000_000L));
    }
    for (int k = 201; k <= 400; k++) {
      replies.add(trace.request(T0 + sec(20) + (k - 201) * 50_000_000L));
    }
    assertThat(replies.subList(0, 2)).containsExactly("N 0.0", "N 1.0");
    assertThat(replies.get(199)).isEqualTo("N 86.3");
    assertThat(replies.get(200)).isEqualTo("N 86.5");
    assertThat(replies.get(226)).isEqualTo("N 100.3");
    assertThat(replies.subList(385, 400)).containsExactly("N 124.4", "N 124.8", "Y 125.2", "N 124.6",
        "N 124.9", "Y 125.3", "N 124.7", "Y 125.1", "N 124.5", "N 124.8", "Y 125.2", "N 124.6",
        "N 125.0", "Y 125.3", "N 124.7");
    List<String> phase2 = replies.subList(200, 400);
    assertThat(replies.subList(0, 200)).allMatch(r -> r.startsWith("N"));
    assertThat(phase2.stream().filter(r -> r.startsWith("N")).count()).isEqualTo(156);
    assertThat(phase2.subList(0, 30)).allMatch(r -> r.startsWith("N"));
    assertThat(phase2.subList(190, 200).stream().filter(r -> r.startsWith("N")).count()).isEqualTo(6);
  }

  private static List<String> sameInstant(Trace trace, int n) {
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      replies.add(trace.request(T0));
    }
    return replies;
  }

  @Test
  void eightAtTheSameInstant() {
    assertThat(sameInstant(new Trace(3, 10, true), 8))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 4.0", "Y 5.0", "Y 6.0", "Y 7.0");
    assertThat(sameInstant(new Trace(3, 10, false), 8))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 3.0", "Y 3.0", "Y 3.0", "Y 3.0");
  }

  @Test
  void sixOneSecondApart() {
    Trace trace = new Trace(3, 10, false);
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      replies.add(trace.request(T0 + sec(i)));
    }
    assertThat(replies).containsExactly("N 0.0", "N 1.0", "N 1.8", "N 2.6", "Y 3.3", "Y 3.0");
  }

  private static List<String> twoPerSecondTiming(boolean strict) {
    Trace trace = new Trace(2, 1, strict);
    List<String> replies = new ArrayList<>();
    for (long t : new long[] {T0, T0, T0, T0, T0 + sec(0.5), T0 + sec(2.5), T0 + sec(2.5)}) {
      replies.add(trace.request(t));
    }
    return replies;
  }

  @Test
  void strictKeepsRecordingRefusals() {
    assertThat(twoPerSecondTiming(true))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 2.6", "N 0.8", "N 1.8");
    assertThat(twoPerSecondTiming(false))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "N 2.0", "N 0.7", "N 1.7");
  }

  /** The floating-point knife edge: 20 same-instant requests, limit 10. */
  @Test
  void sameInstantIncrementDependsOnThePeriod() {
    for (boolean strict : new boolean[] {true, false}) {
      assertThat(sameInstant(new Trace(10, 1, strict), 20).stream().filter(r -> r.startsWith("Y")).count())
          .isEqualTo(9);
      assertThat(sameInstant(new Trace(10, 10, strict), 20).stream().filter(r -> r.startsWith("Y")).count())
          .isEqualTo(10);
    }
    DecayingRate p1 = new DecayingRate(new DecayPolicy(10, Duration.ofSeconds(1), true));
    assertThat(p1.measure("61|0|" + T0, T0, 1).rate()).isEqualTo(0.99999997171806843);
    DecayingRate p10 = new DecayingRate(new DecayPolicy(10, Duration.ofSeconds(10), true));
    assertThat(p10.measure("61|0|" + T0, T0, 1).stored().encode("61|")).isEqualTo("61|1.000000082740371|" + T0);
  }

  @Test
  void reportsAndStateOfAFreshKey() {
    DecayingRate d = new DecayingRate(new DecayPolicy(3, Duration.ofSeconds(10), true));
    assertThat(d.peek(null, T0).result("default")).isEqualTo(new Result("default", true, 3, 3, T0, 0));
    Outcome first = d.allow(null, T0, 1);
    assertThat(first.newState()).isEqualTo("61|0|" + T0);
    assertThat(first.ttl()).isEqualTo(Duration.ofSeconds(50));
    assertThat(first.decision().result("default")).isEqualTo(new Result("default", true, 3, 2, T0, 0));
    assertThat(d.peek(first.newState(), T0).result("default").remaining()).isEqualTo(2);
    Outcome second = d.allow(first.newState(), T0, 1);
    assertThat(second.decision().result("default").remaining()).isEqualTo(1);
  }

  @Test
  void retryAfterIsTheFirstNanosecondBelowTheLimit() {
    for (boolean strict : new boolean[] {true, false}) {
      DecayingRate d = new DecayingRate(new DecayPolicy(3, Duration.ofSeconds(10), strict));
      String state = null;
      Outcome o = null;
      for (int i = 0; i < 6; i++) {
        o = d.allow(state, T0, 1);
        state = o.changed() ? o.newState() : state;
      }
      Result denied = o.decision().result("default");
      assertThat(denied.allowed()).isFalse();
      long wait = denied.retryAfterNs();
      assertThat(wait).isPositive();
      assertThat(denied.resetNs()).isEqualTo(T0 + wait);
      assertThat(d.allow(state, T0 + wait - 1, 1).allowed()).isFalse();
      assertThat(d.allow(state, T0 + wait, 1).allowed()).isTrue();
      assertThat(d.peek(state, T0 + wait - 1).result("default").retryAfterNs()).isEqualTo(1);
      if (o.changed()) {
        assertThat(o.ttl()).isEqualTo(Duration.ofNanos(sec(50) + wait));
      }
    }
  }

  @Test
  void aClockStepBackCountsAsTheSameInstant() {
    DecayingRate d = new DecayingRate(new DecayPolicy(3, Duration.ofSeconds(10), true));
    Measurement m = d.measure("61|1|" + T0, T0 - sec(5), 1);
    assertThat(m.rate()).isEqualTo(d.measure("61|1|" + T0, T0, 1).rate());
    assertThat(m.stored().atNs()).isEqualTo(T0 - sec(5));
  }

  @Test
  void malformedStatesAreRejected() {
    DecayingRate d = new DecayingRate(new DecayPolicy(3, Duration.ofSeconds(10), true));
    for (String bad : List.of("", "61|", "61|1", "61|NaN|5", "61|Inf|5", "61|-1|5", "61|1|5|6", "12|1|5")) {
      assertThatThrownBy(() -> d.allow(bad, T0, 1)).as(bad).isInstanceOf(MalformedStateException.class)
          .hasMessageContaining("decaying_rate");
    }
  }
}
