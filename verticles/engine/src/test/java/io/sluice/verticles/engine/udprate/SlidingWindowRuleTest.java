package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleAlgorithm;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.WindowState;
import io.sluice.verticles.engine.udprate.store.StateTransition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A rule with {@code algorithm: sliding-window} through the whole engine, on a hand-moved clock. */
class SlidingWindowRuleTest {

  private static final long SECOND = 1_000_000_000L;

  private final EngineHarness server = new EngineHarness(new RuleSet(List.of(), List.of(),
      List.of(Rule.limit("^w", 3, 10, false).withAlgorithm(RuleAlgorithm.SLIDING_WINDOW)),
      Rule.forAnyKey(3, 10, false)));

  @Test
  void admitsExactlyTheLimitAndReportsTheWeightedCountAsTheRate() {
    assertThat(server.overLimit("w")).isEqualTo("ok N 1.0 3.0 10");
    assertThat(server.overLimit("w")).isEqualTo("ok N 2.0 3.0 10");
    assertThat(server.overLimit("w")).isEqualTo("ok N 3.0 3.0 10");
    assertThat(server.overLimit("w")).isEqualTo("ok Y 3.0 3.0 10");

    server.clock.advance(Duration.ofSeconds(15)); // halfway into the next window: the previous weighs 1.5
    assertThat(server.overLimit("w")).isEqualTo("ok N 2.5 3.0 10");
    assertThat(server.overLimit("w")).isEqualTo("ok Y 2.5 3.0 10");
    assertThat(server.store.get("w"))
        .isEqualTo(new WindowState("71|3|1|" + (EngineHarness.T0 + 10) * SECOND));
  }

  @Test
  void aKeyWhoseRuleChangedAlgorithmStartsAfresh() {
    server.overLimit("other");
    assertThat(server.store.get("other")).isInstanceOf(RateState.class);
    server.store.update("w", current -> StateTransition.Outcome.store(new RateState(EngineHarness.T0, 99), 60_000, null));
    assertThat(server.overLimit("w")).isEqualTo("ok N 1.0 3.0 10");
    assertThat(server.failures).isEmpty();
  }
}
