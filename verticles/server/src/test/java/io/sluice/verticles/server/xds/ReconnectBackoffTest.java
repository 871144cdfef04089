package io.sluice.verticles.server.xds;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ReconnectBackoffTest {

  @Test
  void waitsDoubleUpToTheBoundAndStartAgainAfterASuccess() {
    ReconnectBackoff longest = new ReconnectBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.999_999);
    assertThat(new long[] {longest.nextDelayMillis(), longest.nextDelayMillis(), longest.nextDelayMillis(),
        longest.nextDelayMillis(), longest.nextDelayMillis(), longest.nextDelayMillis(), longest.nextDelayMillis()})
        .containsExactly(999, 1999, 3999, 7999, 15_999, 29_999, 29_999);
    longest.reset();
    assertThat(longest.nextDelayMillis()).isEqualTo(999);
  }

  @Test
  void eachWaitIsAtLeastHalfOfIt() {
    ReconnectBackoff shortest = new ReconnectBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.0);
    assertThat(new long[] {shortest.nextDelayMillis(), shortest.nextDelayMillis(), shortest.nextDelayMillis()})
        .containsExactly(500, 1000, 2000);
  }
}
