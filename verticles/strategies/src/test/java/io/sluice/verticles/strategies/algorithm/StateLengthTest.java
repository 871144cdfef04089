package io.sluice.verticles.strategies.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.DecayPolicy;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Strategy;
import io.sluice.verticles.strategies.WindowPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Strategy#maxStateLength} bounds every state written, so a store's value size can be checked at start. */
class StateLengthTest {

  @Test
  void aFullFixedWindowOfEightLongQuotasReachesTheBoundExactly() {
    List<Quota> quotas = new ArrayList<>();
    for (int i = 0; i < WindowPolicy.MAX_QUOTAS; i++) {
      quotas.add(new Quota(i + "-" + "q".repeat(62), Long.MAX_VALUE, Duration.ofDays(1 + i)));
    }
    FixedWindow window = new FixedWindow(new WindowPolicy(quotas));
    String state = window.allow(null, Long.MIN_VALUE, Long.MAX_VALUE).newState();
    assertThat(state).hasSize(window.maxStateLength());
    assertThat(window.maxStateLength()).isEqualTo(4 + 8 * (3 + 64 + 19 + 20));
  }

  @Test
  void gcraAtItsLongestTimestamp() {
    Gcra gcra = new Gcra(new BucketPolicy(3, 1));
    assertThat(gcra.allow(null, Long.MIN_VALUE + 1).newState()).hasSize(gcra.maxStateLength());
  }

  @Test
  void everyStrategyStaysWithinItsBound() {
    SplittableRandom random = new SplittableRandom(12);
    BucketPolicy bucket = new BucketPolicy(7, 1.0 / 3);
    FixedWindow window = new FixedWindow(WindowPolicy.of(new Quota("m", 99, Duration.ofMinutes(1))));
    List<Strategy> strategies = List.of(new TokenBucket(bucket), new LeakyBucket(bucket), new Gcra(bucket),
        new DecayingRate(new DecayPolicy(2.5, Duration.ofMillis(1700), false)), window,
        new Composite(window, new TokenBucket(bucket)), new SlidingWindow(new Quota("s", 99, Duration.ofSeconds(7))));
    for (Strategy strategy : strategies) {
      String state = null;
      long now = -random.nextLong(1L << 62);
      for (int i = 0; i < 2_000; i++) {
        now += random.nextLong(1_000_000_000L);
        Outcome outcome = strategy.allow(state, now);
        if (outcome.newState() != null) {
          state = outcome.newState();
          assertThat(state.length()).as("%s: %s", strategy.name(), state).isLessThanOrEqualTo(strategy.maxStateLength());
        }
      }
    }
  }
}
