package io.sluice.verticles.rls;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The local over-limit cache: until when it remembers, and the bytes it keeps to. */
class OverLimitCacheTest {

  private static byte[] key(int i) {
    return ("rls:d:user_" + i + ":1767225600").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aKeyIsOverUntilItsInstantThenForgotten() {
    OverLimitCache cache = new OverLimitCache(1 << 20);
    cache.remember(key(1), 1_000);
    assertThat(cache.isOver(key(1), 999)).isTrue();
    assertThat(cache.isOver(key(2), 999)).isFalse();
    assertThat(cache.isOver(key(1), 1_000)).isFalse();
    assertThat(cache.entries()).isZero();
    assertThat(cache.hits()).isEqualTo(1);
    assertThat(cache.misses()).isEqualTo(2);
  }

  @Test
  void itKeepsToItsBytesByForgettingTheOldest() {
    long perEntry = key(0).length + OverLimitCache.ENTRY_OVERHEAD_BYTES;
    OverLimitCache cache = new OverLimitCache(16 * 10 * perEntry);   // 10 entries in each of 16 segments
    for (int i = 0; i < 10_000; i++) {
      cache.remember(key(i), Long.MAX_VALUE);
    }
    assertThat(cache.entries()).isLessThanOrEqualTo(160).isGreaterThan(0);
    assertThat(cache.evictions()).isEqualTo(10_000 - cache.entries());
    assertThat(cache.isOver(key(9_999), 0)).as("the newest stays").isTrue();
    assertThat(cache.isOver(key(0), 0)).as("the oldest went").isFalse();
  }

  @Test
  void offRemembersNothing() {
    OverLimitCache off = OverLimitCache.off();
    off.remember(key(1), Long.MAX_VALUE);
    assertThat(off.enabled()).isFalse();
    assertThat(off.isOver(key(1), 0)).isFalse();
    assertThat(off.misses()).isZero();
    assertThatThrownBy(() -> new OverLimitCache(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
