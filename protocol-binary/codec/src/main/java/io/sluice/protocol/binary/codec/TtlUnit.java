package io.sluice.protocol.binary.codec;

import java.util.concurrent.TimeUnit;

/**
 * TTL type bytes (spec §1.3). The raw byte is stored and echoed as sent; a byte outside 1..6 names
 * no unit, and {@link #ofCode} answers {@code null} so each command applies its own rule for it.
 */
public enum TtlUnit {
  NANOSECONDS(0x01, TimeUnit.NANOSECONDS),
  MICROSECONDS(0x02, TimeUnit.MICROSECONDS),
  MILLISECONDS(0x03, TimeUnit.MILLISECONDS),
  SECONDS(0x04, TimeUnit.SECONDS),
  MINUTES(0x05, TimeUnit.MINUTES),
  HOURS(0x06, TimeUnit.HOURS);

  private final int code;
  private final long nanosPerUnit;

  TtlUnit(int code, TimeUnit unit) {
    this.code = code;
    this.nanosPerUnit = unit.toNanos(1);
  }

  public int code() {
    return code;
  }

  public long nanosPerUnit() {
    return nanosPerUnit;
  }

  public static TtlUnit ofCode(int code) {
    return code >= 1 && code <= 6 ? values()[code - 1] : null;
  }
}
