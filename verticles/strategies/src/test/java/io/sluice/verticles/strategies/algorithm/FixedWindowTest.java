package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.WindowPolicy;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Fixed window: spec §9.1 upstream cases and §9.2 derived vectors. Upstream's "0/min without
 * Validate" cannot be built here (the policy refuses limit 0, see PolicyTest); "CAS fails ×3" is
 * the caller's retry loop.
 */
class FixedWindowTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  private static FixedWindow window(Quota... quotas) {
    return new FixedWindow(WindowPolicy.of(quotas));
  }

  private static Ledger ledger(Quota... quotas) {
    return new Ledger(window(quotas));
  }

  private static List<Boolean> allows(Ledger l, String key, int n) {
    return IntStream.range(0, n).mapToObj(i -> l.allow(key).allowed()).toList();
  }

  @Test
  void fivePerMinute() {
    Ledger l = ledger(new Quota("default", 5, MINUTE));
    assertThat(allows(l, "k", 6)).containsExactly(true, true, true, true, true, false);
  }

  @Test
  void twoPerSecondThenANewWindow() {
    Ledger l = ledger(new Quota("default", 2, Duration.ofSeconds(1)));
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    l.at(1.1);
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void keysAreIndependent() {
    Ledger l = ledger(new Quota("default", 1, MINUTE));
    assertThat(List.of(l.allow("user1").allowed(), l.allow("user1").allowed(), l.allow("user2").allowed()))
        .containsExactly(true, false, true);
  }

  @Test
  void peekOfAFreshKey() {
    Ledger l = ledger(new Quota("default", 5, MINUTE));
    assertThat(l.peek("k").result("default")).isEqualTo(new Result("default", true, 5, 5, T0 + sec(60), 0));
  }

  @Test
  void peekAfterThreeAllows() {
    Ledger l = ledger(new Quota("default", 5, MINUTE));
    allows(l, "k", 3);
    assertThat(l.peek("k").result("default").remaining()).isEqualTo(2);
  }

  @Test
  void peekOfAnExhaustedQuota() {
    Ledger l = ledger(new Quota("default", 2, MINUTE));
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    assertThat(l.peek("k").result("default"))
        .isEqualTo(new Result("default", false, 2, 0, T0 + sec(60), sec(60)));
  }

  @Test
  void resetDeletesTheWindow() {
    Ledger l = ledger(new Quota("default", 2, MINUTE));
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    l.reset("k");
    assertThat(l.allow("k").allowed()).isTrue();
  }

  @Test
  void tenConcurrentCallersOnFivePerMinute() {
    Ledger l = ledger(new Quota("default", 5, MINUTE));
    assertThat(Ledger.allowedCount(l.race("k", 10))).isEqualTo(5);
    assertThat(l.allow("k").allowed()).isFalse();
  }

  @Test
  void windowStartsAtTheFirstRequestNotOnClockBoundaries() {
    Ledger l = ledger(new Quota("default", 3, Duration.ofSeconds(5)));
    assertThat(List.of(l.at(0).allow("k").allowed(), l.at(2).allow("k").allowed(), l.at(4).allow("k").allowed()))
        .containsExactly(true, true, true);
    l.at(5.001);
    assertThat(allows(l, "k", 4)).containsExactly(true, true, true, false);
    assertThat(l.state("k")).isEqualTo("23|1|default|3|" + (T0 + sec(5.001)));
  }

  @Test
  void windowExpiresExactlyAtStartPlusWindow() {
    Ledger l = ledger(new Quota("default", 1, Duration.ofSeconds(5)));
    l.allow("k");
    assertThat(l.atNs(T0 + sec(5) - 1).allow("k").allowed()).isFalse();
    assertThat(l.atNs(T0 + sec(5)).allow("k").allowed()).isTrue();
  }

  @Test
  void peekOfAStoredHalfUsedWindow() {
    FixedWindow fw = window(new Quota("default", 10, MINUTE));
    Decision d = fw.peek("23|1|default|5|" + (T0 - sec(30)), T0);
    assertThat(d.result("default")).isEqualTo(new Result("default", true, 10, 5, T0 + sec(30), 0));
  }

  @Test
  void peekOfExpiredOrUnknownEntriesIsFresh() {
    FixedWindow fw = window(new Quota("default", 10, MINUTE));
    assertThat(fw.peek("23|1||5|" + (T0 - sec(120)), T0).result("default").remaining()).isEqualTo(10);
    assertThat(fw.peek("23|1|default|5|" + (T0 - sec(120)), T0).result("default").remaining()).isEqualTo(10);
  }

  @Test
  void freshAllowLeavesNine() {
    Outcome o = window(new Quota("default", 10, MINUTE)).allow(null, T0, 1);
    assertThat(o.decision().result("default")).isEqualTo(new Result("default", true, 10, 9, T0 + sec(60), 0));
    assertThat(o.newState()).isEqualTo("23|1|default|1|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void atTheLimitDeniesWithoutWriting() {
    Outcome o = window(new Quota("default", 10, MINUTE)).allow("23|1|default|10|" + T0, T0 + sec(1), 1);
    assertThat(o.changed()).isFalse();
    assertThat(o.decision().result("default"))
        .isEqualTo(new Result("default", false, 10, 0, T0 + sec(60), sec(59)));
  }

  @Test
  void twoFreshQuotasBothAllow() {
    Outcome o = window(new Quota("requests", 100, MINUTE), new Quota("writes", 10, MINUTE)).allow(null, T0, 1);
    assertThat(o.decision().results()).extracting(Result::name, Result::allowed, Result::remaining)
        .containsExactly(tuple("requests", true, 99L),
            tuple("writes", true, 9L));
  }

  @Test
  void oneExhaustedQuotaDeniesAllAndConsumesNone() {
    FixedWindow fw = window(new Quota("requests", 100, MINUTE), new Quota("writes", 1, MINUTE));
    String state = "23|2|requests|0|" + T0 + "|writes|1|" + T0;
    Outcome o = fw.allow(state, T0, 1);
    assertThat(o.allowed()).isFalse();
    assertThat(o.changed()).isFalse();
    assertThat(o.decision().result("requests")).isEqualTo(new Result("requests", true, 100, 100, T0 + sec(60), 0));
    assertThat(o.decision().result("writes")).isEqualTo(new Result("writes", false, 1, 0, T0 + sec(60), sec(60)));
  }


  @Test
  void ttlIsTheLatestWindowEndTimesFive() {
    FixedWindow fw = window(new Quota("default", 10, MINUTE), new Quota("burst", 6, Duration.ofSeconds(30)));
    String state = "23|2|default|0|" + T0 + "|burst|0|" + (T0 - sec(30));
    Outcome o = fw.allow(state, T0, 1);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(300));
    assertThat(o.newState()).isEqualTo("23|2|default|1|" + T0 + "|burst|1|" + T0);
  }

  @Test
  void ttlUnderOneSecondIsOneSecond() {
    FixedWindow fw = window(new Quota("default", 10, Duration.ofMillis(500)));
    assertThat(fw.allow(null, T0, 1).ttl()).isEqualTo(Duration.ofSeconds(1));
    assertThat(window(new Quota("default", 10, Duration.ofSeconds(1))).allow(null, T0, 1).ttl())
        .isEqualTo(Duration.ofSeconds(5));
  }

  /** §9.2: minute 5/60 s + hour 100/3600 s. */
  @Test
  void derivedVectorMinuteAndHour() {
    Ledger l = ledger(new Quota("minute", 5, MINUTE), new Quota("hour", 100, Duration.ofHours(1)));
    Outcome o = l.at(0).allow("k");
    assertThat(o.decision().results()).containsExactly(
        new Result("minute", true, 5, 4, T0 + sec(60), 0), new Result("hour", true, 100, 99, T0 + sec(3600), 0));
    assertThat(o.newState()).isEqualTo("23|2|minute|1|" + T0 + "|hour|1|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(18000));
    for (int t = 1; t <= 4; t++) {
      o = l.at(t).allow("k");
      assertThat(o.decision().result("minute").remaining()).isEqualTo(4 - t);
      assertThat(o.decision().result("hour").remaining()).isEqualTo(99 - t);
      assertThat(o.newState()).isEqualTo("23|2|minute|" + (t + 1) + "|" + T0 + "|hour|" + (t + 1) + "|" + T0);
      assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(18000 - 5L * t));
    }
    o = l.at(5).allow("k");
    assertThat(o.changed()).isFalse();
    assertThat(o.decision().results()).containsExactly(
        new Result("minute", false, 5, 0, T0 + sec(60), sec(55)), new Result("hour", true, 100, 95, T0 + sec(3600), 0));
    assertThat(o.decision().retryAfterNs()).isEqualTo(sec(55));
    o = l.at(60).allow("k");
    long t60 = T0 + sec(60);
    assertThat(o.decision().results()).containsExactly(
        new Result("minute", true, 5, 4, t60 + sec(60), 0), new Result("hour", true, 100, 94, T0 + sec(3600), 0));
    assertThat(o.newState()).isEqualTo("23|2|minute|1|" + t60 + "|hour|6|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(17700));
  }

  /**
   * §9.2 quirk vector, with Sluice's fix: a quota added while state exists starts fresh and is
   * enforced (upstream would store it under an empty name and never enforce it).
   */
  @Test
  void aQuotaMissingFromTheStoredStateIsEnforcedAtOnce() {
    Ledger l = ledger(new Quota("minute", 5, MINUTE), new Quota("hour", 3, Duration.ofHours(1)));
    l.put("k", "23|1|minute|2|" + T0);
    long t1 = T0 + sec(1);
    for (int t = 1; t <= 3; t++) {
      Outcome o = l.at(t).allow("k");
      assertThat(o.decision().result("minute").remaining()).isEqualTo(3 - t);
      assertThat(o.decision().result("hour")).isEqualTo(new Result("hour", true, 3, 3 - t, t1 + sec(3600), 0));
    }
    assertThat(l.state("k")).isEqualTo("23|2|minute|5|" + T0 + "|hour|3|" + t1);
    Outcome denied = l.at(4).allow("k");
    assertThat(denied.decision().results()).extracting(Result::allowed).containsExactly(false, false);
  }

  @Test
  void entriesOfRemovedQuotasAreDroppedAtTheNextWrite() {
    FixedWindow fw = window(new Quota("minute", 5, MINUTE));
    Outcome o = fw.allow("23|2|old|7|" + T0 + "|minute|1|" + T0, T0, 1);
    assertThat(o.newState()).isEqualTo("23|1|minute|2|" + T0);
  }

  @Test
  void aStoredCountAboveTheLimitDenies() {
    Outcome o = window(new Quota("minute", 5, MINUTE)).allow("23|1|minute|9|" + T0, T0, 1);
    assertThat(o.decision().result("minute")).extracting(Result::allowed, Result::remaining).containsExactly(false, 0L);
  }

  @Test
  void costConsumesFromEveryQuota() {
    FixedWindow fw = window(new Quota("minute", 5, MINUTE), new Quota("hour", 100, Duration.ofHours(1)));
    Outcome o = fw.allow(null, T0, 4);
    assertThat(o.newState()).isEqualTo("23|2|minute|4|" + T0 + "|hour|4|" + T0);
    Outcome two = fw.allow(o.newState(), T0, 2);
    assertThat(two.changed()).isFalse();
    assertThat(two.decision().result("minute")).isEqualTo(new Result("minute", false, 5, 1, T0 + sec(60), sec(60)));
    assertThat(fw.allow(null, T0, 6).decision().result("minute").retryAfterNs()).isEqualTo(Result.NEVER);
  }

  @Test
  void stateRoundTripsByteForByte() {
    for (String s : List.of("23|1|default|3|" + T0, "23|2|minute|1|" + T0 + "|hour|6|-5",
        "23|3|a|0|0|b:c@d.e+f-g_h|12|1|x|9223372036854775807|-9223372036854775808")) {
      assertThat(FixedWindow.encode(FixedWindow.decode(s))).isEqualTo(s);
    }
  }
}
