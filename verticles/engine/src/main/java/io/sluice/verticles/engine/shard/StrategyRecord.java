package io.sluice.verticles.engine.shard;

import io.sluice.verticles.strategies.Outcome;

import java.nio.charset.StandardCharsets;

/**
 * A rate-limit strategy's state kept as a key's buffer record, byte for byte in the strategies'
 * ASCII format (docs/strategy-state.md): how the check API's task and Envoy's strategy task read
 * it and store what a strategy decided. Only valid during {@link ShardTask#run}.
 */
public final class StrategyRecord {

  private StrategyRecord() {
  }

  /**
   * The stored state as a strategy reads it, or null without a record. ISO-8859-1 maps bytes to
   * chars one to one: a stray non-ASCII byte stays visible and fails decoding, never a silent reset.
   */
  public static String read(KeyState state) {
    byte[] value = state.value();
    return value == null ? null : new String(value, StandardCharsets.ISO_8859_1);
  }

  /**
   * Stores the outcome's new state with its TTL, when it has one.
   *
   * @return false when the shard is full and refused it ({@link KeyState#put}); true otherwise
   */
  public static boolean store(KeyState state, Outcome outcome) {
    return !outcome.changed() || state.put(outcome.newState().getBytes(StandardCharsets.US_ASCII), ttlNanos(outcome));
  }

  /** A TTL beyond 292 years (a 100-year window × 5, a huge burst at a slow rate) saturates instead of overflowing. */
  private static long ttlNanos(Outcome outcome) {
    try {
      return outcome.ttl().toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
