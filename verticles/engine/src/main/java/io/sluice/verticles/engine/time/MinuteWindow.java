package io.sluice.verticles.engine.time;

/**
 * Throttr's per-minute metrics are tumbling one-minute windows counted from server start, not
 * aligned to wall-clock minutes (spec §4). Every counter asks here which window an instant is in.
 */
public final class MinuteWindow {

  public static final long NANOS = 60_000_000_000L;

  private MinuteWindow() {
  }

  public static int index(long originNanos, long nowNanos) {
    return (int) Math.floorDiv(nowNanos - originNanos, NANOS);
  }
}
