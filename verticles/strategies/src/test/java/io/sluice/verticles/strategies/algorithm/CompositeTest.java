package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static io.sluice.verticles.strategies.algorithm.Ledger.sec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.WindowPolicy;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Composite: spec §9.1 dual cases, the §9.2 dual vector, and atomicity — a denied request consumes
 * nothing on either side. Storage-key layout ({@code <base>:<key>:c}) is the caller's.
 */
class CompositeTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  private static FixedWindow window(long limit, Duration window) {
    return new FixedWindow(WindowPolicy.of(new Quota("default", limit, window)));
  }

  private static TokenBucket tokens(long burst, double rate) {
    return new TokenBucket(new BucketPolicy(burst, rate));
  }

  private static List<Boolean> allows(Ledger l, String key, int n) {
    return IntStream.range(0, n).mapToObj(i -> l.allow(key).allowed()).toList();
  }

  private static List<String> names(Decision d) {
    return d.results().stream().map(Result::name).toList();
  }

  @Test
  void leakySecondaryAdmitsItsBurstThenDenies() {
    Ledger l = new Ledger(new Composite(window(5, Duration.ofSeconds(10)),
        new LeakyBucket(new BucketPolicy(3, 0.5))));
    for (int i = 0; i < 3; i++) {
      Outcome o = l.allow("k");
      assertThat(o.allowed()).isTrue();
      assertThat(names(o.decision())).containsExactly("primary_default", "secondary_default");
    }
    assertThat(allows(l, "k", 7)).containsOnly(false);
  }

  @Test
  void threeQuotasAndATokenBucket() {
    threeQuotasAnd(tokens(5, 2));
  }

  @Test
  void threeQuotasAndGcra() {
    threeQuotasAnd(new Gcra(new BucketPolicy(5, 5)));
  }

  private static void threeQuotasAnd(Strategy secondary) {
    FixedWindow primary = new FixedWindow(WindowPolicy.of(new Quota("minute", 5, MINUTE),
        new Quota("hour", 100, Duration.ofHours(1)), new Quota("day", 1000, Duration.ofDays(1))));
    Ledger l = new Ledger(new Composite(primary, secondary));
    Decision d = l.allow("k").decision();
    assertThat(d.allowed()).isTrue();
    assertThat(d.results()).extracting(Result::name, Result::remaining).containsExactly(
        tuple("primary_minute", 4L),
        tuple("primary_hour", 99L),
        tuple("primary_day", 999L),
        tuple("secondary_default", 4L));
    assertThat(allows(l, "k", 4)).containsOnly(true);
    Decision denied = l.allow("k").decision();
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.result("primary_minute").remaining()).isZero();
    assertThat(names(denied)).containsExactly("primary_minute", "primary_hour", "primary_day");
  }

  @Test
  void peeksReportBothSides() {
    Ledger l = new Ledger(new Composite(window(3, Duration.ofSeconds(10)), tokens(2, 0.1)));
    long[][] expected = {{3, 2}, {3, 2}, {2, 1}, {2, 1}};
    Decision[] got = {l.peek("k"), l.peek("k"), l.allow("k").decision(), l.peek("k")};
    for (int i = 0; i < 4; i++) {
      assertThat(got[i].result("primary_default").remaining()).isEqualTo(expected[i][0]);
      assertThat(got[i].result("secondary_default").remaining()).isEqualTo(expected[i][1]);
    }
  }

  @Test
  void resetDeletesBothSides() {
    Ledger l = new Ledger(new Composite(window(2, Duration.ofSeconds(10)), tokens(2, 0.1)));
    assertThat(allows(l, "k", 3)).containsExactly(true, true, false);
    l.reset("k");
    Decision d = l.allow("k").decision();
    assertThat(d.allowed()).isTrue();
    assertThat(d.result("primary_default").remaining()).isEqualTo(1);
    assertThat(d.result("secondary_default").remaining()).isEqualTo(1);
  }

  @Test
  void keysAreIndependent() {
    Ledger l = new Ledger(new Composite(window(2, Duration.ofSeconds(10)), tokens(1, 0.1)));
    assertThat(List.of(l.allow("u1").allowed(), l.allow("u1").allowed(), l.allow("u2").allowed()))
        .containsExactly(true, false, true);
  }

  @Test
  void twentyConcurrentCallersPerUser() {
    Ledger l = new Ledger(new Composite(window(10, Duration.ofSeconds(5)), tokens(5, 1)));
    for (int user = 0; user < 5; user++) {
      assertThat(Ledger.allowedCount(l.race("user" + user, 20))).isEqualTo(5);
    }
  }

  @Test
  void onlyABucketOrGcraCanBeSecondary() {
    assertThatThrownBy(() -> new Composite(window(1, MINUTE), window(2, MINUTE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("secondary");
  }

  @Test
  void aPrimaryDenialReportsThePrimaryAlone() {
    FixedWindow primary = new FixedWindow(WindowPolicy.of(new Quota("p", 1, MINUTE)));
    Composite c = new Composite(primary, tokens(5, 1));
    String state = "51|23|1|p|1|" + T0 + "$12|3|" + T0;
    Outcome o = c.allow(state, T0, 1);
    assertThat(o.changed()).isFalse();
    assertThat(o.decision().results()).containsExactly(new Result("primary_p", false, 1, 0, T0 + sec(60), sec(60)));
  }

  @Test
  void aSecondaryDenialStoresNothing() {
    Ledger l = new Ledger(new Composite(window(5, MINUTE), tokens(1, 0.1)));
    String state = "51|$12|0|" + T0;
    l.put("k", state);
    Outcome o = l.allow("k");
    assertThat(o.changed()).isFalse();
    assertThat(l.state("k")).isEqualTo(state);
    assertThat(o.decision().result("secondary_default").allowed()).isFalse();
    assertThat(o.decision().result("primary_default").allowed()).isTrue();
  }

  /** Upstream's mock: the compare-and-set fails twice, the third attempt succeeds. */
  @Test
  void aCallerThatLosesTwoRacesSucceedsOnTheThirdRead() {
    Composite c = new Composite(window(5, MINUTE), tokens(5, 1));
    String read = null;
    for (int lost = 0; lost < 2; lost++) {
      Outcome stale = c.allow(read, T0, 1);
      String winner = c.allow(read, T0, 1).newState();
      assertThat(stale.newState()).isEqualTo(winner);
      read = winner;
    }
    Outcome third = c.allow(read, T0, 1);
    assertThat(third.allowed()).isTrue();
    assertThat(third.newState()).isEqualTo("51|23|1|default|3|" + T0 + "$12|2|" + T0);
  }

  @Test
  void threeConcurrentCallersAllPass() {
    Ledger l = new Ledger(new Composite(window(5, MINUTE), tokens(5, 1)));
    assertThat(l.race("k", 3)).extracting(Outcome::allowed).containsExactly(true, true, true);
    assertThat(l.lostRaces()).isEqualTo(2);
  }

  /** Upstream answers a peek of {@code invalid_format} as two fresh sides; Sluice refuses it. */
  @Test
  void aValueWithoutHeaderOrSeparatorIsMalformedNotFresh() {
    Composite c = new Composite(window(5, MINUTE), tokens(5, 1));
    for (String bad : List.of("invalid_format", "cmp1|23|1|default|1|5$12|1|5", "51|23|1|default|1|5")) {
      assertThatThrownBy(() -> c.peek(bad, T0)).isInstanceOf(MalformedStateException.class)
          .extracting(e -> ((MalformedStateException) e).strategy()).isEqualTo("composite");
      assertThatThrownBy(() -> c.allow(bad, T0, 1)).isInstanceOf(MalformedStateException.class);
    }
  }

  @Test
  void subStateErrorsPropagateAndEmptySidesAreFresh() {
    Composite c = new Composite(window(5, MINUTE), tokens(5, 1));
    assertThatThrownBy(() -> c.peek("51|23|1|default|x|5$12|1|5", T0))
        .isInstanceOf(MalformedStateException.class).hasMessageContaining("fixed_window");
    assertThatThrownBy(() -> c.peek("51|23|1|default|1|5$42|5", T0))
        .isInstanceOf(MalformedStateException.class).hasMessageContaining("token_bucket");
    Decision fresh = c.peek("51|$", T0);
    assertThat(fresh.result("primary_default").remaining()).isEqualTo(5);
    assertThat(fresh.result("secondary_default").remaining()).isEqualTo(5);
  }

  /** §9.2: FW default 2/10 s + TB B 1, r 0.1. */
  @Test
  void derivedDualVector() {
    Ledger l = new Ledger(new Composite(window(2, Duration.ofSeconds(10)), tokens(1, 0.1)));
    long t10 = T0 + sec(10);
    Outcome o = l.allow("k");
    assertThat(o.decision().results()).containsExactly(
        new Result("primary_default", true, 2, 1, t10, 0), new Result("secondary_default", true, 1, 0, T0, 0));
    assertThat(o.newState()).isEqualTo("51|23|1|default|1|" + T0 + "$12|0|" + T0);
    assertThat(o.ttl()).isEqualTo(Duration.ofSeconds(50));

    o = l.allow("k");
    assertThat(o.changed()).isFalse();
    assertThat(o.decision().results()).containsExactly(
        new Result("primary_default", true, 2, 1, t10, 0), new Result("secondary_default", false, 1, 0, T0, sec(10)));

    o = l.at(10).allow("k");
    assertThat(o.allowed()).isTrue();
    assertThat(o.newState()).isEqualTo("51|23|1|default|1|" + t10 + "$12|0|" + t10);
  }

  @Test
  void ttlIsTheLongerOfTheTwo() {
    assertThat(new Composite(window(5, MINUTE), tokens(5, 1)).allow(null, T0, 1).ttl())
        .isEqualTo(Duration.ofSeconds(300));
    assertThat(new Composite(window(5, Duration.ofSeconds(1)), tokens(5, 1)).allow(null, T0, 1).ttl())
        .isEqualTo(Duration.ofSeconds(25));
  }


  /**
   * Upstream's hole (§3.5): peeks allow, then the leaky secondary's own allow denies at a
   * fractional level — upstream commits the primary's consumption anyway. Here nothing is written.
   */
  @Test
  void aSecondaryThatDeniesAfterItsPeekAllowedConsumesNothing() {
    Ledger l = new Ledger(new Composite(window(10, MINUTE), new LeakyBucket(new BucketPolicy(3, 1))));
    assertThat(allows(l, "k", 3)).containsOnly(true);
    String full = "51|23|1|default|3|" + T0 + "$32|3|" + T0;
    assertThat(l.state("k")).isEqualTo(full);
    Outcome o = l.at(0.5).allow("k");
    assertThat(o.allowed()).isFalse();
    assertThat(o.changed()).isFalse();
    assertThat(l.state("k")).isEqualTo(full);
    assertThat(o.decision().results()).containsExactly(
        new Result("primary_default", true, 10, 7, T0 + sec(60), 0),
        new Result("secondary_default", false, 3, 1, T0 + sec(0.5), sec(0.5)));
  }

  @Test
  void aCostTheSecondaryCannotTakeConsumesNothing() {
    Composite c = new Composite(window(10, MINUTE), tokens(5, 1));
    Outcome first = c.allow(null, T0, 3);
    assertThat(first.newState()).isEqualTo("51|23|1|default|3|" + T0 + "$12|2|" + T0);
    Outcome second = c.allow(first.newState(), T0, 3);
    assertThat(second.allowed()).isFalse();
    assertThat(second.changed()).isFalse();
    assertThat(second.decision().result("primary_default").remaining()).isEqualTo(7);
    assertThat(second.decision().result("secondary_default"))
        .isEqualTo(new Result("secondary_default", false, 5, 2, T0 + sec(1), sec(1)));
  }

  /** Random walk: the composite admits exactly when both sides would, and then commits both. */
  @Test
  void bothSidesOrNeither() {
    FixedWindow primary = new FixedWindow(WindowPolicy.of(new Quota("s", 4, Duration.ofSeconds(2)),
        new Quota("m", 20, MINUTE)));
    for (Strategy secondary : List.of(tokens(3, 1.5), new LeakyBucket(new BucketPolicy(3, 1.5)),
        new Gcra(new BucketPolicy(3, 1.5)))) {
      Composite c = new Composite(primary, secondary);
      SplittableRandom random = new SplittableRandom(2024);
      String state = null;
      long now = T0;
      int admitted = 0;
      for (int i = 0; i < 3000; i++) {
        now += random.nextLong(0, 700_000_000L);
        long cost = random.nextInt(1, 3);
        String p = null;
        String s = null;
        if (state != null) {
          int dollar = state.indexOf('$');
          p = state.substring(3, dollar);
          s = state.substring(dollar + 1);
        }
        Outcome pAlone = primary.allow(p, now, cost);
        Outcome sAlone = secondary.allow(s, now, cost);
        Outcome both = c.allow(state, now, cost);
        assertThat(both.allowed()).isEqualTo(pAlone.allowed() && sAlone.allowed());
        if (both.allowed()) {
          admitted++;
          assertThat(both.newState()).isEqualTo("51|" + pAlone.newState() + "$" + sAlone.newState());
          state = both.newState();
        } else {
          assertThat(both.changed()).isFalse();
        }
      }
      assertThat(admitted).as("both admissions and denials occur").isBetween(100, 2900);
    }
  }
}
