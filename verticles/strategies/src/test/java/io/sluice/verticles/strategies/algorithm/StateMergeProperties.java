package io.sluice.verticles.strategies.algorithm;

import static io.sluice.verticles.strategies.algorithm.Ledger.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.WindowPolicy;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The heal's contract for every strategy: a key counted on both sides of a split, from a common
 * state, then joined, admits at any later time no more requests than either side's copy would.
 */
class StateMergeProperties {

  /** Enough to exhaust every generated policy; what is compared is how many of them are admitted. */
  private static final int PROBES = 60;

  record Step(int gapMillis, int cost) {
  }

  @Property(tries = 200)
  void theJoinAdmitsNoMoreThanEitherCopy(@ForAll("strategies") Strategy strategy,
                                         @ForAll("steps") @Size(max = 6) List<Step> before,
                                         @ForAll("steps") @Size(max = 12) List<Step> sideA,
                                         @ForAll("steps") @Size(max = 12) List<Step> sideB,
                                         @ForAll @IntRange(max = 90_000) int probeAfterMillis) {
    Run common = new Run(strategy, null, T0).apply(before);
    Run a = new Run(strategy, common.state, common.nowNs).apply(sideA);
    Run b = new Run(strategy, common.state, common.nowNs).apply(sideB);
    if (a.state == null || b.state == null) {
      return; // a copy that never changed is not a copy to join
    }
    String joined = StateMerge.stricter(a.state, b.state);
    long probe = Math.max(a.nowNs, b.nowNs) + probeAfterMillis * 1_000_000L;
    int admittedJoined = admitted(strategy, joined, probe);
    assertThat(admittedJoined).as("joined %s of %s and %s", joined, a.state, b.state)
        .isLessThanOrEqualTo(Math.min(admitted(strategy, a.state, probe), admitted(strategy, b.state, probe)));
    assertThat(StateMerge.stricter(a.state, a.state)).isEqualTo(a.state);
  }

  /** How many unit requests in a row the state admits at {@code nowNs}, up to {@link #PROBES}. */
  private static int admitted(Strategy strategy, String state, long nowNs) {
    int admitted = 0;
    while (admitted < PROBES) {
      Outcome outcome = strategy.allow(state, nowNs, 1);
      if (outcome.changed()) {
        state = outcome.newState();
      }
      if (!outcome.allowed()) {
        break;
      }
      admitted++;
    }
    return admitted;
  }

  /** A key's state as one side of the split writes it. */
  private static final class Run {
    final Strategy strategy;
    String state;
    long nowNs;

    Run(Strategy strategy, String state, long nowNs) {
      this.strategy = strategy;
      this.state = state;
      this.nowNs = nowNs;
    }

    Run apply(List<Step> steps) {
      for (Step step : steps) {
        nowNs += step.gapMillis() * 1_000_000L;
        Outcome outcome = strategy.allow(state, nowNs, step.cost());
        if (outcome.changed()) {
          state = outcome.newState();
        }
      }
      return this;
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(0, 3_000), Arbitraries.integers().between(1, 3))
        .as(Step::new).list();
  }

  @Provide
  Arbitrary<Strategy> strategies() {
    Arbitrary<BucketPolicy> buckets = Combinators.combine(Arbitraries.longs().between(1, 20),
        Arbitraries.doubles().between(0.2, 20)).as(BucketPolicy::new);
    Arbitrary<FixedWindow> windows = Combinators.combine(Arbitraries.longs().between(1, 20),
            Arbitraries.integers().between(1, 30), Arbitraries.longs().between(1, 40))
        .as((limit, seconds, hourly) -> new FixedWindow(WindowPolicy.of(
            new Quota("short", limit, Duration.ofSeconds(seconds)), new Quota("long", hourly, Duration.ofHours(1)))));
    Arbitrary<Strategy> decaying = Combinators.combine(Arbitraries.doubles().between(0.5, 20),
            Arbitraries.integers().between(1, 60), Arbitraries.of(true, false))
        .as((limit, seconds, strict) -> new DecayingRate(new DecayPolicy(limit, Duration.ofSeconds(seconds), strict)));
    Arbitrary<Strategy> sliding = Combinators.combine(Arbitraries.longs().between(1, 20),
            Arbitraries.integers().between(1, 30))
        .as((limit, seconds) -> new SlidingWindow(new Quota("sliding", limit, Duration.ofSeconds(seconds))));
    return Arbitraries.oneOf(
        buckets.map(TokenBucket::new),
        buckets.map(LeakyBucket::new),
        buckets.map(Gcra::new),
        windows.map(w -> w),
        Combinators.combine(windows, buckets.map(TokenBucket::new)).as(Composite::new),
        Combinators.combine(windows, buckets.map(Gcra::new)).as(Composite::new),
        decaying,
        sliding);
  }
}
