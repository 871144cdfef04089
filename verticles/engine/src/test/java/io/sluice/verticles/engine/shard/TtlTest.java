package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.ValueSize;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The TTL arithmetic of spec §2.0 on its own. */
class TtlTest {

  private static final long NOW = 1_767_225_600_000_000_000L;
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  @Test
  void expiresAtConvertsEachKnownUnit() {
    assertThat(Ttl.expiresAt(NOW, 0x01, 5)).isEqualTo(NOW + 5);
    assertThat(Ttl.expiresAt(NOW, 0x02, 5)).isEqualTo(NOW + 5_000);
    assertThat(Ttl.expiresAt(NOW, 0x03, 5)).isEqualTo(NOW + 5_000_000);
    assertThat(Ttl.expiresAt(NOW, 0x04, 5)).isEqualTo(NOW + 5 * SECOND);
    assertThat(Ttl.expiresAt(NOW, 0x05, 5)).isEqualTo(NOW + 300 * SECOND);
    assertThat(Ttl.expiresAt(NOW, 0x06, 5)).isEqualTo(NOW + 18_000 * SECOND);
  }

  @Test
  void expiresAtCountsAnUnknownUnitAsSeconds() {
    assertThat(Ttl.expiresAt(NOW, 0x00, 5)).isEqualTo(NOW + 5 * SECOND);
    assertThat(Ttl.expiresAt(NOW, 0x07, 5)).isEqualTo(NOW + 5 * SECOND);
    assertThat(Ttl.expiresAt(NOW, 0xff, 5)).isEqualTo(NOW + 5 * SECOND);
  }

  @Test
  void remainingIsFlooredInTheRecordUnit() {
    assertThat(Ttl.remaining(NOW + 60 * SECOND - 1, NOW, 0x04, ValueSize.UINT16)).isEqualTo(59);
    assertThat(Ttl.remaining(NOW + 60 * SECOND, NOW, 0x04, ValueSize.UINT16)).isEqualTo(60);
    assertThat(Ttl.remaining(NOW + 1_999_999, NOW, 0x03, ValueSize.UINT16)).isEqualTo(1);
    assertThat(Ttl.remaining(NOW + 2 * SECOND - 1, NOW, 0x00, ValueSize.UINT16)).isEqualTo(1);
  }

  @Test
  void remainingIsZeroOnceExpired() {
    assertThat(Ttl.remaining(NOW, NOW, 0x01, ValueSize.UINT16)).isZero();
    assertThat(Ttl.remaining(NOW - SECOND, NOW, 0x01, ValueSize.UINT16)).isZero();
    assertThat(Ttl.remaining(Long.MIN_VALUE, NOW, 0x01, ValueSize.UINT64)).isZero();
  }

  @Test
  void remainingWrapsModuloTheValueSize() {
    assertThat(Ttl.remaining(NOW + 66_000 * SECOND - 1, NOW, 0x04, ValueSize.UINT16)).isEqualTo(463);
    assertThat(Ttl.remaining(NOW + 300, NOW, 0x01, ValueSize.UINT8)).isEqualTo(44);
    assertThat(Ttl.remaining(NOW + (1L << 32) + 7, NOW, 0x01, ValueSize.UINT32)).isEqualTo(7);
  }

  @Test
  void updateUnitOfAnUnknownTypeIsZero() {
    assertThat(Ttl.updateUnitNanos(0x00)).isZero();
    assertThat(Ttl.updateUnitNanos(0x07)).isZero();
    assertThat(Ttl.updateUnitNanos(0x04)).isEqualTo(SECOND);
    assertThat(Ttl.updateUnitNanos(0x01)).isEqualTo(1);
  }

  @Test
  void toNanosSaturatesAndTreatsTtlAsUnsigned() {
    assertThat(Ttl.toNanos(3, SECOND)).isEqualTo(3 * SECOND);
    assertThat(Ttl.toNanos(Long.MAX_VALUE / SECOND, SECOND)).isEqualTo(Long.MAX_VALUE / SECOND * SECOND);
    assertThat(Ttl.toNanos(Long.MAX_VALUE / SECOND + 1, SECOND)).isEqualTo(Long.MAX_VALUE);
    assertThat(Ttl.toNanos(-1L, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Ttl.toNanos(-1L, 0)).isZero();
    assertThat(Ttl.toNanos(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void saturatingAddStopsAtTheLargestInstant() {
    assertThat(Ttl.saturatingAdd(NOW, 5)).isEqualTo(NOW + 5);
    assertThat(Ttl.saturatingAdd(NOW, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(Ttl.saturatingAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Ttl.saturatingAdd(Long.MAX_VALUE, 0)).isEqualTo(Long.MAX_VALUE);
  }
}
