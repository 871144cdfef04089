package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The full-store warning: when eviction starts, then at most once a minute while it goes on. */
class FullStoreWarningTest {

  private final ManualClock clock = new ManualClock();
  private final Store store = new Store(clock, clock.epochNanos(), new StoreLimits(2, StoreLimits.UNLIMITED, Eviction.VOLATILE_TTL));
  private final FullStoreWarning warning = new FullStoreWarning(store);
  private int next;

  private void insert() {
    byte[] key = ("k" + next++).getBytes(StandardCharsets.US_ASCII);
    store.createCounter(key, store.hash(key), 1, 0x04, store.now() + Duration.ofHours(1).toNanos(), store.now());
  }

  @Test
  void warnsWhenEvictionStartsThenOnceAMinuteWithWhatHappenedSince() {
    insert();
    insert();
    assertThat(warning.check(clock.epochNanos())).as("at the bound, nothing evicted yet").isNull();
    insert();
    assertThat(warning.check(clock.epochNanos())).isEqualTo("full: 2 records, 192 bytes estimated (limits: 2 records, "
        + "no byte limit); 1 records evicted (1 for --max-keys, 0 for --max-memory), 0 writes refused (--eviction volatile-ttl)");
    for (int i = 0; i < 5; i++) {
      insert();
      clock.advance(Duration.ofSeconds(10));
      assertThat(warning.check(clock.epochNanos())).as("within the minute").isNull();
    }
    clock.advance(Duration.ofSeconds(10));
    assertThat(warning.check(clock.epochNanos())).startsWith("still full: ").contains("in the last minute 5 records evicted");
    clock.advance(Duration.ofMinutes(5));
    assertThat(warning.check(clock.epochNanos())).as("nothing new").isNull();
  }
}
