package io.sluice.verticles.engine.shard;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;

/**
 * TTL arithmetic of spec §2.0. TTL values are unsigned N-byte numbers; every conversion to
 * nanoseconds saturates instead of overflowing, so a uint64 TTL in hours simply never expires.
 */
final class Ttl {

  private Ttl() {
  }

  /** Expiry for INSERT and SET: a TTL type outside 1..6 counts as seconds. */
  static long expiresAt(long nowNanos, int ttlType, long ttl) {
    return saturatingAdd(nowNanos, toNanos(ttl, creationUnitNanos(ttlType)));
  }

  /** Remaining time in the record's own unit, floored, 0 once expired, wrapped to N bytes. */
  static long remaining(long expiresAtNanos, long nowNanos, int ttlType, ValueSize size) {
    if (expiresAtNanos <= nowNanos) {
      return 0;
    }
    return size.wrap((expiresAtNanos - nowNanos) / creationUnitNanos(ttlType));
  }

  /**
   * The nanoseconds of one unit for UPDATE of a TTL. Unlike creation, a stored TTL type outside
   * 1..6 converts to 0 ns here (the reference's update service), so PATCH expires the record and
   * INCREASE/DECREASE change nothing.
   */
  static long updateUnitNanos(int ttlType) {
    TtlUnit unit = TtlUnit.ofCode(ttlType);
    return unit == null ? 0 : unit.nanosPerUnit();
  }

  /** {@code ttl} is unsigned; the product saturates at {@link Long#MAX_VALUE}. */
  static long toNanos(long ttl, long unitNanos) {
    if (unitNanos == 0) {
      return 0;
    }
    if (ttl < 0 || ttl > Long.MAX_VALUE / unitNanos) {
      return Long.MAX_VALUE;
    }
    return ttl * unitNanos;
  }

  static long saturatingAdd(long a, long nonNegative) {
    long sum = a + nonNegative;
    return sum < a ? Long.MAX_VALUE : sum;
  }

  private static long creationUnitNanos(int ttlType) {
    TtlUnit unit = TtlUnit.ofCode(ttlType);
    return unit == null ? TtlUnit.SECONDS.nanosPerUnit() : unit.nanosPerUnit();
  }
}
